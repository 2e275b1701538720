/**
 * The script build loads the bridge as a second classic script from where airlock.js came from; a
 * classic script needs no CORS, so any static server can host Airlock. The bridge hands itself over
 * through a one-shot global that is deleted at once.
 */
type Bridge = typeof import('./bridge.ts')

const src = (document.currentScript as HTMLScriptElement | null)?.src

export const loadBridge = (): Promise<Bridge> =>
  new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = new URL('airlock-bridge.js', src).href
    script.onload = () => {
      const bridge = (window as { __airlockBridge?: Bridge }).__airlockBridge
      delete (window as { __airlockBridge?: Bridge }).__airlockBridge
      if (bridge) resolve(bridge)
      else reject(new Error('airlock-bridge.js did not load'))
    }
    script.onerror = () => reject(new Error('airlock-bridge.js did not load'))
    document.head.append(script)
  })
