/**
 * The relay's texts, which clients may match on (the shared ones, such as `The RPC of {chainId} is
 * unavailable`, are `http/errors.ts`'s).
 */
export const messages = {
  notRelayed: (method: string) => `The Airlock API does not relay ${method}`,
  esploraOnly: (chainId: string) =>
    `${chainId} is served as Esplora, under /v1/bip122/${chainId.slice('bip122:'.length)}/esplora, not as JSON-RPC`,
} as const
