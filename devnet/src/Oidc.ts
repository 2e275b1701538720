/**
 * The development sign-in provider for social login (a real OpenID provider on loopback, one client per
 * documented provider (docs/behaviour.md §1), each in its real shape: OpenID Connect, Apple's form post, the user endpoints of GitHub
 * (`/user` and `/user/emails`), Discord, Facebook and X). Its home is the API's
 * (`api/src/features/auth/internal/oidc.ts`), whose tests run it too; the dev stack starts it on its fixed
 * port.
 */
export * from '@airlock/api/oidc-dev'
