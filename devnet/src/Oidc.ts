/**
 * The development sign-in provider for social login (a real OpenID provider on loopback, one client per
 * provider shape). Its home is the API's (`api/src/features/auth/internal/oidc.ts`), whose tests run it too;
 * the dev stack starts it on its fixed port.
 */
export * from '@airlock/api/oidc-dev'
