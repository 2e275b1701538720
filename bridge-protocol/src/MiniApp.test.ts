import { describe, expect, it } from 'vitest'
import { miniApp } from './MiniApp.ts'

describe('miniApp', () => {
  it('reads the platform and version Telegram.WebApp gives', () => {
    expect(miniApp({ platform: 'ios', version: '8.0' })).toEqual({ platform: 'ios', version: '8.0' })
    expect(miniApp({ platform: 'android', version: '7.10' })).toEqual({
      platform: 'android',
      version: '7.10',
    })
    expect(miniApp({ platform: 'tdesktop' })).toEqual({ platform: 'tdesktop' })
  })

  it('drops what it does not name', () => {
    expect(miniApp({ platform: 'ios', version: '8.0', initData: 'user=…' })).toEqual({
      platform: 'ios',
      version: '8.0',
    })
  })

  it('counts Telegram’s script outside Telegram as no mini-app', () => {
    expect(miniApp({ platform: 'unknown', version: '6.0' })).toBeUndefined()
  })

  it('counts a signal of another shape as absent, never as a failure', () => {
    for (const value of [
      undefined,
      null,
      'ios',
      {},
      { platform: '' },
      { platform: 'iOS' },
      { platform: 'x'.repeat(33) },
      { platform: ['ios'] },
      { platform: '[object Object]', version: '8.0' },
    ])
      expect(miniApp(value)).toBeUndefined()
  })

  it('keeps the platform when only the version is of another shape', () => {
    expect(miniApp({ platform: 'ios', version: 'undefined' })).toEqual({ platform: 'ios' })
    expect(miniApp({ platform: 'ios', version: 8 })).toEqual({ platform: 'ios' })
  })
})
