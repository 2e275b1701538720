import type * as Standard from '@wallet-standard/base'
import { describe, expectTypeOf, it } from 'vitest'
import type { Wallet, WalletAccount } from './WalletStandard.ts'

describe('the restated Wallet Standard types', () => {
  it('are assignable both ways to @wallet-standard/base’s', () => {
    expectTypeOf<Wallet>().toExtend<Standard.Wallet>()
    expectTypeOf<Standard.Wallet>().toExtend<Wallet>()
    expectTypeOf<WalletAccount>().toExtend<Standard.WalletAccount>()
    expectTypeOf<Standard.WalletAccount>().toExtend<WalletAccount>()
  })
})
