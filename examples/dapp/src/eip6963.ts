/**
 * A dApp written against EIP-6963 and viem only, like wagmi's multi-injected discovery: it finds
 * Airlock (rdns `dev.airlock`) among the announced providers without importing anything from Airlock.
 */
import { createWalletClient, custom, type EIP1193Provider } from 'viem'

type Detail = { info: { uuid: string; name: string; rdns: string; icon: string }; provider: EIP1193Provider }

const providers = new Map<string, Detail>()
const list = document.getElementById('providers') as HTMLElement

window.addEventListener('eip6963:announceProvider', ((event: CustomEvent<Detail>) => {
  const detail = event.detail
  if (providers.has(detail.info.rdns)) return
  providers.set(detail.info.rdns, detail)
  const item = document.createElement('li')
  const button = document.createElement('button')
  button.type = 'button'
  button.textContent = `Connect with ${detail.info.name}`
  button.dataset.rdns = detail.info.rdns
  button.onclick = () => connect(detail.provider)
  item.append(button)
  list.append(item)
}) as EventListener)
window.dispatchEvent(new Event('eip6963:requestProvider'))

async function connect(provider: EIP1193Provider) {
  const result = document.getElementById('result') as HTMLElement
  try {
    const client = createWalletClient({ transport: custom(provider) })
    const addresses = await client.requestAddresses()
    result.textContent = addresses.join(',')
  } catch (error) {
    result.textContent = `error ${(error as { code?: number }).code}`
  }
}

/** Exposed for tests and curious visitors: the providers this page discovered. */
Object.assign(window, { eip6963Providers: providers })
