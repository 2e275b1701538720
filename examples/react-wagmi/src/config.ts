/** One Airlock for the page, shared by `<AirlockProvider>` and wagmi's `airlock()` connector. */
import { type AirlockOptions, createAirlock } from '@airlock/host-sdk'
import { airlock } from '@airlock/wagmi'
import { defineChain } from 'viem'
import { createConfig, http } from 'wagmi'

const devnet = (id: number, name: string, port: number) =>
  defineChain({
    id,
    name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [`http://127.0.0.1:${port}`] } },
  })
const devnetA = devnet(31337, 'Airlock Devnet A', 8545)
const devnetB = devnet(31338, 'Airlock Devnet B', 8546)

export const options: AirlockOptions = {
  projectId: 'demo',
  modalUrl: 'http://airlock.localhost:5174',
  networks: ['eip155:31337', 'eip155:31338'],
  customNetworks: [devnetA, devnetB].map((chain) => ({
    id: `eip155:${chain.id}`,
    name: chain.name,
    rpcUrl: chain.rpcUrls.default.http[0] as string,
    nativeCurrency: chain.nativeCurrency,
    testnet: true,
  })),
}

// This page renders only in the browser, so the instance is made at once (a server-rendered app lets
// <AirlockProvider options={options}> make it after mount instead).
export const instance = createAirlock(options)

export const wagmiConfig = createConfig({
  chains: [devnetA, devnetB],
  connectors: [airlock({ airlock: instance })],
  transports: { [devnetA.id]: http(), [devnetB.id]: http() },
})
