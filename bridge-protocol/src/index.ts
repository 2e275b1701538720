export * as Async from './Async.ts'
export type { Namespace } from './Caip.ts'
export * as Caip from './Caip.ts'
export * as Errors from './Errors.ts'
export * as Handshake from './Handshake.ts'
export * as Messenger from './Messenger.ts'
export * as Methods from './Methods.ts'
export * as Origin from './Origin.ts'
export type {
  HostApi,
  ModalApi,
  PageWallet,
  Payment,
  Request,
  Session,
  State,
  Status,
  Version,
  VersionRange,
  WalletEvent,
} from './Schema.ts'
export * as Schema from './Schema.ts'
export * as Siwx from './Siwx.ts'
export type { PublicView } from './Views.ts'
export * as Views from './Views.ts'
