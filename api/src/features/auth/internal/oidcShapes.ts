/**
 * The providers the development provider (`oidc.ts`) stands in for, each in its real shape: how its client
 * shows its secret, the scopes it is asked for, the claims of a login (ID token, userinfo), and, for the
 * OAuth 2.0 providers with JSON of their own, their user endpoints under `/shapes/<provider>/…`:
 * - `discord`: `GET /users/@me` → `{ id, username, global_name, email, verified }` (email and verified only
 *   with the `email` scope);
 * - `facebook`: `GET /me?fields=id,name,email` → `{ id, name, email }`, only the fields asked for, and the
 *   email only when confirmed (Facebook leaves an unconfirmed one out);
 * - `x`: `GET /2/users/me?user.fields=confirmed_email` → `{ data: { id, name, username, confirmed_email } }`,
 *   the email only with the `users.email` scope and only when confirmed.
 * A login name starting with `unverified` has an unverified (unconfirmed) email everywhere.
 */

/** The provider shapes it stands in for, by the API's provider ids (SPEC's order). */
export const shapes = ['google', 'x', 'discord', 'github', 'apple', 'facebook'] as const
export type Shape = (typeof shapes)[number]

/** How each client shows its secret at the token endpoint: X takes a confidential client's only as Basic. */
export const clientAuth: Record<Shape, 'client_secret_post' | 'client_secret_basic'> = {
  google: 'client_secret_post',
  x: 'client_secret_basic',
  discord: 'client_secret_post',
  github: 'client_secret_post',
  apple: 'client_secret_post',
  facebook: 'client_secret_post',
}

/** The real providers' own scopes (Apple's, GitHub's, Discord's, Facebook's, X's), granted as asked. */
export const scopes = [
  'name',
  'read:user',
  'user:email',
  'identify',
  'public_profile',
  'tweet.read',
  'users.read',
  'users.email',
]

/** An access token oidc-provider issued, as the user endpoints read it. */
export type Token = { clientId: string; accountId: string; scope?: string }

/** The person behind a login name, at one provider. */
type Person = { id: string; login: string; email: string; verified: boolean }

const personOf = (login: string, shape: Shape): Person => ({
  id: login,
  login,
  email: `${login}@${shape}.test`,
  verified: !login.startsWith('unverified'),
})

/** The claims of a login: Google gives no handle, GitHub its login; Apple writes `email_verified` as a string. */
export function claimsOf(sub: string, shape: Shape) {
  const { email, verified } = personOf(sub, shape)
  if (shape === 'apple') return { sub, email, email_verified: String(verified) }
  const claims = {
    sub,
    email,
    email_verified: verified,
    name: sub,
    picture: `https://${shape}.test/${encodeURIComponent(sub)}.png`,
  }
  return shape === 'github' ? { ...claims, preferred_username: sub } : claims
}

type Answer = (person: Person, granted: Set<string>, query: URLSearchParams) => unknown

/** The user endpoints: path under `/shapes/<provider>`, and the JSON the real one answers. */
const users: Partial<Record<Shape, { path: string; answer: Answer }>> = {
  discord: {
    path: '/users/@me',
    answer: (person, granted) => ({
      id: person.id,
      username: person.login,
      global_name: person.login,
      ...(granted.has('email') ? { email: person.email, verified: person.verified } : {}),
    }),
  },
  facebook: {
    path: '/me',
    answer(person, granted, query) {
      const fields = new Set((query.get('fields') ?? 'id,name').split(','))
      const email = fields.has('email') && granted.has('email') && person.verified
      return {
        id: person.id,
        ...(fields.has('name') ? { name: person.login } : {}),
        ...(email ? { email: person.email } : {}),
      }
    },
  },
  x: {
    path: '/2/users/me',
    answer(person, granted, query) {
      const fields = new Set(query.get('user.fields')?.split(','))
      const email = fields.has('confirmed_email') && granted.has('users.email') && person.verified
      const data = { id: person.id, name: person.login, username: person.login }
      return { data: email ? { ...data, confirmed_email: person.email } : data }
    },
  },
}

/**
 * Answers a request under `/shapes/`: the user of its bearer token, in the shape of the provider the path
 * names, if the token is that provider's client's (a Discord token is worthless at X).
 */
export async function userEndpoint(
  url: URL,
  authorization: string | undefined,
  find: (token: string) => Promise<Token | undefined>,
  shapeOf: (clientId: string) => Shape | undefined,
): Promise<{ status: number; body: string }> {
  const [, name = '', path] = /^\/shapes\/([a-z]+)(\/.*)$/.exec(url.pathname) ?? []
  const shape = shapes.find((known) => known === name)
  const endpoint = shape && users[shape]
  if (!shape || !endpoint || endpoint.path !== path) return answer(404, { message: 'Not Found' })
  const value = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1]
  const token = value ? await find(value) : undefined
  if (!token || shapeOf(token.clientId) !== shape) return answer(401, { message: '401: Unauthorized' })
  const granted = new Set(token.scope?.split(' '))
  return answer(200, endpoint.answer(personOf(token.accountId, shape), granted, url.searchParams))
}

function answer(status: number, body: unknown) {
  return { status, body: JSON.stringify(body) }
}
