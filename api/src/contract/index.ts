/**
 * The HTTP contract between the API and its clients (the modal): the query and body shapes of the routes
 * the modal calls, and the shapes of their answers. The server builds its answers typed by these shapes and
 * parses its inputs with them; the modal parses every answer with them. Pure: no Node or server imports, so
 * the modal's bundle takes only the shapes it uses.
 * @example
 * import * as Contract from '@airlock/api/contract'
 * const parsed = S.parse(Contract.balancesAnswer, await response.json())
 */
export * from './analytics.ts'
export * from './auth.ts'
export * from './balances.ts'
export * from './common.ts'
export * from './history.ts'
export * from './identity.ts'
export * from './names.ts'
export * from './nfts.ts'
export * from './onramp.ts'
export * from './passkey.ts'
export * from './projects.ts'
export * from './registry.ts'
export * from './sessions.ts'
export * from './siwx.ts'
export * from './swaps.ts'
export * from './wallet.ts'
