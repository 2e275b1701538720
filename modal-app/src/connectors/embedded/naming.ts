import { embeddedTexts } from './texts.ts'

/** Who logged in, as far as naming them goes. */
export type Named = {
  email?: string | undefined
  username?: string | undefined
  fid?: number | undefined
  provider?: string | undefined
}

/**
 * How the visitor is named: their email, else their handle (a Farcaster name, a GitHub login), else their
 * fid, else their provider's name: a Facebook login's user has neither email nor handle (the API links no
 * address Facebook does not vouch for).
 */
export function nameOf(user: Named): string {
  const name = user.email ?? user.username
  if (name !== undefined) return name
  if (user.fid !== undefined) return `fid ${user.fid}`
  return embeddedTexts.providers[user.provider ?? ''] ?? ''
}
