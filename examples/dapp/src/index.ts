/**
 * The demo dApp: plain viem on top of Airlock's EIP-1193 provider. Nothing here knows about the modal
 * beyond `airlock.open()`; the provider is the same standard interface any wallet gives.
 */
import type { Airlock } from '@airlock/host-sdk'
import { createWalletClient, custom, parseEther } from 'viem'

declare global {
  interface Window {
    airlock?: Airlock
  }
}

const $ = (id: string) => document.getElementById(id) as HTMLElement
const airlock = window.airlock as Airlock
const provider = airlock.providers.eip155
const wallet = createWalletClient({ transport: custom(provider) })

const show = (id: string, value: unknown) => {
  $(id).textContent = typeof value === 'string' ? value : JSON.stringify(value)
}
const log = (name: string, value: unknown) => {
  const item = document.createElement('li')
  item.textContent = `${name} ${JSON.stringify(value)}`
  $('events').append(item)
}
const run = (work: () => Promise<unknown>) => () =>
  work().then(
    (value) => show('result', value),
    (error: { code?: number; message?: string }) => show('result', `error ${error.code}: ${error.message}`),
  )

for (const event of ['connect', 'disconnect', 'accountsChanged', 'chainChanged'])
  provider.on(event, (value: never) => log(event, value))

airlock.subscribeState((state) => {
  show('status', state.status)
  show('account', state.caipAddress ?? '—')
  show('chain', state.caipNetworkId ?? '—')
})

$('open').onclick = () => airlock.open()
$('disconnect').onclick = () => airlock.disconnect()
$('sign').onclick = run(async () => {
  const [account] = await wallet.requestAddresses()
  return wallet.signMessage({ account: account as `0x${string}`, message: 'Hello from the Airlock demo' })
})
$('send').onclick = run(async () => {
  const [account] = await wallet.requestAddresses()
  return wallet.sendTransaction({
    account: account as `0x${string}`,
    chain: null,
    to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    value: parseEther('0.01'),
  })
})
$('switch').onclick = run(async () => {
  const chainId = await wallet.getChainId()
  const next = chainId === 31337 ? 31338 : 31337
  await wallet.switchChain({ id: next })
  return `switched to ${next}`
})
