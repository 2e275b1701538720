import { describe, expect, it } from 'vitest'
import { isIos, isMobile, pairingConnects } from './Platform.ts'

const iphoneSafari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
// iPadOS 13 and later: Safari asks for the desktop site, with a Mac's user agent.
const ipadOsSafari =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15'
const androidChrome =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36'
const linuxChrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'

const device = (userAgent: string, maxTouchPoints = 0) => ({ userAgent, maxTouchPoints })

describe('Platform', () => {
  it('takes iPadOS, a Mac user agent on a touch screen, for iOS and a mobile device', () => {
    expect(isIos(device(ipadOsSafari, 5))).toBe(true)
    expect(isMobile(device(ipadOsSafari, 5))).toBe(true)
    // A Mac has no touch screen: the same user agent without touch points is a desktop.
    expect(isIos(device(ipadOsSafari, 0))).toBe(false)
    expect(isMobile(device(ipadOsSafari, 0))).toBe(false)
    // A touch screen alone makes no iPad.
    expect(isIos(device(linuxChrome, 10))).toBe(false)
  })

  it('knows phones by their user agent', () => {
    expect(isMobile(device(iphoneSafari, 5))).toBe(true)
    expect(isMobile(device(androidChrome, 5))).toBe(true)
    expect(isMobile(device(linuxChrome))).toBe(false)
  })

  it('counts a pairing as connecting in a Telegram mini-app, by the host’s signal, whatever the browser', () => {
    expect(pairingConnects(device(androidChrome, 5), { platform: 'android', version: '8.0' })).toBe(true)
    expect(pairingConnects(device(linuxChrome), { platform: 'tdesktop' })).toBe(true)
    // The same browsers without the signal: no Telegram, whatever their user agent says.
    expect(pairingConnects(device(androidChrome, 5), undefined)).toBe(false)
    expect(pairingConnects(device(`${linuxChrome} Telegram-Android/11.0`), undefined)).toBe(false)
  })

  it('counts a pairing as connecting in Safari on iOS and iPadOS', () => {
    expect(pairingConnects(device(iphoneSafari, 5), undefined)).toBe(true)
    expect(pairingConnects(device(ipadOsSafari, 5), undefined)).toBe(true)
    expect(pairingConnects(device(ipadOsSafari, 0), undefined)).toBe(false)
  })
})
