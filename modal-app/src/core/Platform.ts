/**
 * What the modal reads of the device it runs on, for what it offers (never for what it guards): a phone,
 * and a browser that suspends a page waiting in the background.
 */
import type { MiniApp } from '@airlock/bridge-protocol/MiniApp'

/** The parts of `navigator` read here; tests give their own. */
export type Device = Pick<Navigator, 'userAgent' | 'maxTouchPoints'>

/**
 * iPhone, iPod and iPad, and iPadOS, whose Safari asks for desktop sites with a Mac's user agent: a Mac
 * with a touch screen is an iPad (no Mac has one).
 */
export function isIos(device: Device): boolean {
  return (
    /iPhone|iPad|iPod/.test(device.userAgent) ||
    (/Macintosh/.test(device.userAgent) && device.maxTouchPoints > 1)
  )
}

/** A phone or tablet: QR codes are no use there, and wallet apps open by link (docs/behaviour.md §2). */
export function isMobile(device: Device): boolean {
  return /Mobi|Android/i.test(device.userAgent) || isIos(device)
}

/**
 * docs/behaviour.md §4: Telegram's mini-apps and Safari on iOS suspend a page that waits in the
 * background, so there a WalletConnect pairing counts as connecting. Telegram is the host's signal
 * (bridge-protocol's MiniApp), not a guess from the user agent.
 */
export function pairingConnects(device: Device, miniApp: MiniApp | undefined): boolean {
  return miniApp !== undefined || (isIos(device) && /Safari/.test(device.userAgent))
}
