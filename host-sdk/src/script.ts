/**
 * The one-line embed: `<script src="…/airlock.js" data-project-id="demo" data-networks="eip155:1">`.
 * Reads the tag's data attributes and exposes the instance as `window.airlock`.
 */
import './global.ts'
import { createAirlock } from './Airlock.ts'

const script = document.currentScript as HTMLScriptElement | null
const data = script?.dataset ?? {}
const list = (value?: string) => (value ? value.split(',').map((item) => item.trim()) : undefined)

window.airlock = createAirlock({
  projectId: data.projectId ?? '',
  networks: list(data.networks) ?? [],
  ...(data.modalUrl && { modalUrl: data.modalUrl }),
  ...(data.themeMode && { themeMode: data.themeMode as 'light' | 'dark' }),
  ...(data.locale && { locale: data.locale }),
  ...(data.embedded && { embedded: data.embedded }),
  // `data-append="false"`: the page places `window.airlock.element` itself, after `airlock:ready`.
  ...(data.append === 'false' && { append: false }),
  ...(data.walletconnectProjectId && { walletConnectProjectId: data.walletconnectProjectId }),
  ...(data.relayUrl && { relayUrl: data.relayUrl }),
})
window.dispatchEvent(new Event('airlock:ready'))
