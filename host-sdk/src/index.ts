export { type Airlock, type AirlockOptions, createAirlock, type SignInOptions } from './Airlock.ts'
export type { CustomNetwork } from './CustomNetwork.ts'
export type { Eip1193Provider, RequestArguments } from './internal/eip1193.ts'
