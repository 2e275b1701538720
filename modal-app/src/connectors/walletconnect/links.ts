/**
 * Deep links that hand a WalletConnect pairing URI to a wallet app:
 * a native scheme (`rainbow://`) gets `wc?uri=…` appended, a universal link (`https://rnbwapp.com`) gets
 * `/wc?uri=…`. Only these two forms are opened; anything else (`javascript:`…) is refused.
 */

/**
 * @example
 * Links.pairingLink('rainbow://', 'wc:abc@2') // 'rainbow://wc?uri=wc%3Aabc%402'
 * Links.pairingLink('https://metamask.app.link', 'wc:abc@2') // 'https://metamask.app.link/wc?uri=wc%3Aabc%402'
 */
export function pairingLink(appLink: string, uri: string): string | undefined {
  const encoded = encodeURIComponent(uri)
  if (/^https:\/\/[^\s]+$/i.test(appLink))
    return `${appLink.endsWith('/') ? appLink : `${appLink}/`}wc?uri=${encoded}`
  const scheme = /^([a-z][a-z0-9+.-]*):(\/\/)?(.*)$/i.exec(appLink)
  if (!scheme || /^(javascript|data|vbscript|file|http|blob)$/i.test(scheme[1] ?? '')) return undefined
  const base = `${scheme[1]}://${scheme[3] ?? ''}`
  return `${base.endsWith('/') || base.endsWith('://') ? base : `${base}/`}wc?uri=${encoded}`
}
