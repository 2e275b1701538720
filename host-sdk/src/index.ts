// The protocol package is not published: the types the API below names are re-exported from here.
export type { PublicView, Session, State, Status } from '@airlock/bridge-protocol'
export type { Features } from '@airlock/bridge-protocol/Features'
export { type Airlock, type AirlockOptions, createAirlock } from './Airlock.ts'
export type { CustomNetwork } from './CustomNetwork.ts'
export type { CustomWallet } from './CustomWallet.ts'
export type { Eip1193Provider, RequestArguments } from './internal/eip1193.ts'
export type { PreferredAccountTypes } from './PreferredAccountTypes.ts'
export type { SignInOptions } from './SignInOptions.ts'
