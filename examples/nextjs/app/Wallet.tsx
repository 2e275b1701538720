'use client'
import type { AirlockOptions } from '@airlock/host-sdk'
import { AirlockProvider, ConnectButton, useAccount } from '@airlock/react'

const options: AirlockOptions = {
  projectId: 'demo',
  modalUrl: 'http://airlock.localhost:5174',
  networks: ['eip155:31337', 'eip155:31338'],
  customNetworks: [
    {
      id: 'eip155:31337',
      name: 'Airlock Devnet A',
      rpcUrl: 'http://127.0.0.1:8545',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      testnet: true,
    },
  ],
}

function Status() {
  const { status, address } = useAccount()
  return (
    <p>
      Status: <output data-testid="status">{status}</output>{' '}
      <output data-testid="address">{address ?? '—'}</output>
    </p>
  )
}

/** The client part: the provider renders on the server too, and creates Airlock once mounted. */
export function Wallet() {
  return (
    <AirlockProvider options={options}>
      <ConnectButton />
      <Status />
    </AirlockProvider>
  )
}
