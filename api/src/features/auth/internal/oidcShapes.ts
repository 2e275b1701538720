/**
 * The providers the development provider (`oidc.ts`) stands in for, each in its real shape: how its client
 * shows its secret, the scopes it is asked for, the claims of a login (ID token, userinfo), and, for the
 * OAuth 2.0 providers, their user endpoints under `/shapes/<provider>/…`:
 * - `github`: `GET /user` → `{ login, id, name, avatar_url, type, email }`, `id` a number and `email` the
 *   public address, `null` here (the default: GitHub keeps addresses private); `GET /user/emails` →
 *   `[{ email, primary, verified, visibility }]`, only with the `user:email` or `user` scope (else 404, as
 *   GitHub answers), listing an older address before the primary `<login>@github.test`. Both refuse a
 *   request without a User-Agent (403), as GitHub does;
 * - `discord`: `GET /users/@me` → `{ id, username, global_name, email, verified }` (email and verified only
 *   with the `email` scope);
 * - `facebook`: `GET /me?fields=id,name,email` → `{ id, name, email }`, only the fields asked for, and the
 *   email only when confirmed (Facebook leaves an unconfirmed one out);
 * - `x`: `GET /2/users/me?user.fields=confirmed_email` → `{ data: { id, name, username, confirmed_email } }`,
 *   the email only with the `users.email` scope and only when confirmed.
 * A login name starting with `unverified` has an unverified (unconfirmed) email everywhere; at GitHub, one
 * starting with `new-primary` has a new primary address not verified yet, and a verified older one,
 * `<login>@previous.github.test`.
 */
import { createHash } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'

/** The provider shapes it stands in for, by the API's provider ids (the product's order, docs/behaviour.md §1). */
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
  'user',
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

/** The claims of a login: Google gives no handle; Apple writes `email_verified` as a string. */
export function claimsOf(sub: string, shape: Shape) {
  const { email, verified } = personOf(sub, shape)
  if (shape === 'apple') return { sub, email, email_verified: String(verified) }
  return {
    sub,
    email,
    email_verified: verified,
    name: sub,
    picture: `https://${shape}.test/${encodeURIComponent(sub)}.png`,
  }
}

/** The numeric id GitHub would give the person of a login name: stable, below 2^48. */
export function githubId(login: string): number {
  return createHash('sha256').update(login).digest().readUIntBE(0, 6)
}

/** GitHub's addresses of a person (`/user/emails`), the older one first: only `primary` marks the primary. */
function githubEmails({ login, email, verified }: Person) {
  return [
    { email: `${login}@previous.github.test`, primary: false, verified, visibility: null },
    {
      email,
      primary: true,
      verified: verified && !login.startsWith('new-primary'),
      visibility: 'private',
    },
  ]
}

type Answer = (person: Person, granted: Set<string>, query: URLSearchParams) => unknown

/**
 * A provider's API: its user endpoints by path under `/shapes/<provider>` (with the scopes one of which a
 * token needs there, if any), the JSON the real one answers, and what it refuses before reading a token.
 */
type Api = {
  endpoints: Record<string, { scopes?: readonly string[]; answer: Answer }>
  refuse?(headers: IncomingHttpHeaders): Reply | undefined
}

type Reply = { status: number; body: string }

const apis: Partial<Record<Shape, Api>> = {
  github: {
    endpoints: {
      '/user': {
        answer: (person) => ({
          login: person.login,
          id: githubId(person.login),
          name: person.login,
          avatar_url: `https://github.test/${encodeURIComponent(person.login)}.png`,
          type: 'User',
          email: null,
        }),
      },
      '/user/emails': { scopes: ['user:email', 'user'], answer: githubEmails },
    },
    refuse: (headers) =>
      headers['user-agent']
        ? undefined
        : answer(403, {
            message:
              'Request forbidden by administrative rules. Please make sure your request has a User-Agent header',
          }),
  },
  discord: {
    endpoints: {
      '/users/@me': {
        answer: (person, granted) => ({
          id: person.id,
          username: person.login,
          global_name: person.login,
          ...(granted.has('email') ? { email: person.email, verified: person.verified } : {}),
        }),
      },
    },
  },
  facebook: {
    endpoints: {
      '/me': {
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
    },
  },
  x: {
    endpoints: {
      '/2/users/me': {
        answer(person, granted, query) {
          const fields = new Set(query.get('user.fields')?.split(','))
          const email = fields.has('confirmed_email') && granted.has('users.email') && person.verified
          const data = { id: person.id, name: person.login, username: person.login }
          return { data: email ? { ...data, confirmed_email: person.email } : data }
        },
      },
    },
  },
}

/**
 * Answers a request under `/shapes/`: the user of its bearer token, in the shape of the provider the path
 * names, if the token is that provider's client's (a Discord token is worthless at X) and has the scope the
 * endpoint needs.
 */
export async function userEndpoint(
  url: URL,
  headers: IncomingHttpHeaders,
  find: (token: string) => Promise<Token | undefined>,
  shapeOf: (clientId: string) => Shape | undefined,
): Promise<Reply> {
  const [, name = '', path = ''] = /^\/shapes\/([a-z]+)(\/.*)$/.exec(url.pathname) ?? []
  const shape = shapes.find((known) => known === name)
  const api = shape && apis[shape]
  const endpoint = api && Object.hasOwn(api.endpoints, path) ? api.endpoints[path] : undefined
  if (!shape || !api || !endpoint) return notFound
  const refused = api.refuse?.(headers)
  if (refused) return refused
  const value = /^Bearer (\S+)$/i.exec(headers.authorization ?? '')?.[1]
  const token = value ? await find(value) : undefined
  if (!token || shapeOf(token.clientId) !== shape) return answer(401, { message: '401: Unauthorized' })
  const granted = new Set(token.scope?.split(' '))
  if (endpoint.scopes && !endpoint.scopes.some((scope) => granted.has(scope))) return notFound
  return answer(200, endpoint.answer(personOf(token.accountId, shape), granted, url.searchParams))
}

function answer(status: number, body: unknown): Reply {
  return { status, body: JSON.stringify(body) }
}

const notFound = answer(404, { message: 'Not Found' })
