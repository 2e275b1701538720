/**
 * The relay's texts, which clients may match on (the shared ones, such as `The RPC of {chainId} is
 * unavailable`, are `http/errors.ts`'s).
 */
export const messages = {
  notRelayed: (method: string) => `The Airlock API does not relay ${method}`,
  invalidParams: (reason: string) => `Invalid params: ${reason}`,
  // The reasons `invalidParams` gives.
  byPosition: (method: string) => `${method} takes its params as an array`,
  noOverrides: (method: string) => `${method} takes no state or block overrides`,
  noKey: (method: string, key: string) => `${method} takes no ${key}`,
  atMost: (method: string, max: number, what: string) => `${method} takes ${max} ${what} at most`,
  answerTooLarge: "The node's answer is too large",
  esploraOnly: (chainId: string) =>
    `${chainId} is served as Esplora, under /v1/bip122/${chainId.slice('bip122:'.length)}/esplora, not as JSON-RPC`,
} as const
