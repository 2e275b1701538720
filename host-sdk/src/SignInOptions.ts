/** Sign-in options; sessions are issued and verified by the Airlock API. */
export type SignInOptions = {
  /** Without a session the visitor cannot stay connected: cancelling the sign-in disconnects. @default false */
  required?: boolean
  /** One line shown in the message the wallet signs. */
  statement?: string
  /** URIs the session covers, listed in the message. */
  resources?: string[]
  /** Seconds until the session expires. @default 86_400 */
  expiresIn?: number
}
