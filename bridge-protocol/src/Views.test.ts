import { describe, expect, it } from 'vitest'
import * as Errors from './Errors.ts'
import * as Schema from './Schema.ts'
import * as S from './Shape.ts'
import * as Views from './Views.ts'

describe('Views', () => {
  it('keeps the public views hosts were promised', () => {
    expect(Views.publicViews).toEqual([
      'Connect',
      'Account',
      'Networks',
      'AllWallets',
      'ConnectingWalletConnectBasic',
      'UnsupportedChain',
      'SIWXSignMessage',
      'ConnectingSiwe',
    ])
  })

  it('tells public views from internal screens and strangers', () => {
    expect(Views.isPublicView('Networks')).toBe(true)
    expect(Views.isPublicView('ConnectingExternal')).toBe(false)
    expect(Views.isPublicView('ApproveTransaction')).toBe(false)
    expect(Views.isPublicView('networks')).toBe(false)
    expect(Views.isPublicView(undefined)).toBe(false)
  })

  it('answers an unknown view with -32602 naming the views a host may open', () => {
    const error = Errors.unknownView('Foo')
    expect(error).toBeInstanceOf(Errors.InvalidParamsError)
    expect(error.code).toBe(-32602)
    expect(error.message).toBe(
      'Unknown view "Foo". Views a host may open: Connect, Account, Networks, AllWallets, ' +
        'ConnectingWalletConnectBasic, UnsupportedChain, SIWXSignMessage, ConnectingSiwe.',
    )
  })

  it('carries any short name on the wire, so neither side fails a newer peer’s parse', () => {
    const open = Schema.modalApi.open.input
    expect(S.parse(open, { view: 'SomeViewFromTheFuture' })).toEqual({
      ok: true,
      value: { view: 'SomeViewFromTheFuture' },
    })
    const state = { open: true, view: 'SomeViewFromTheFuture', status: 'connected', namespaces: {} }
    expect(S.parse(Schema.state, state).ok).toBe(true)
    for (const view of ['', 'a b', '<script>', 'x'.repeat(65), 42])
      expect(S.parse(open, { view }).ok, String(view)).toBe(false)
  })
})
