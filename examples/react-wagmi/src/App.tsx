import { ConnectButton } from '@airlock/react'
import { useState } from 'react'
import {
  useAccount,
  useChainId,
  useConnect,
  useConnectors,
  useDisconnect,
  useSignMessage,
  useSwitchChain,
} from 'wagmi'
import { SendCalls } from './SendCalls.tsx'

/** What a wagmi dApp shows: its connector list, the connection wagmi holds, and a few wallet calls. */
export function App() {
  const connectors = useConnectors()
  const { connect, error: connectError } = useConnect()
  const { address, connector, status } = useAccount()
  const chainId = useChainId()
  const { chains, switchChain, error: switchError } = useSwitchChain()
  const { disconnect } = useDisconnect()
  const { signMessageAsync } = useSignMessage()
  const [signature, setSignature] = useState<string>()
  const [signError, setSignError] = useState<string>()

  const sign = async () => {
    setSignError(undefined)
    try {
      setSignature(await signMessageAsync({ message: 'Hello from wagmi' }))
    } catch (error) {
      setSignError((error as Error).message)
    }
  }

  return (
    <main>
      <h1>Airlock with React and wagmi</h1>
      <section aria-label="Airlock">
        <ConnectButton />
      </section>
      <section aria-label="wagmi">
        <h2>Wallets</h2>
        <ul aria-label="Wallets">
          {connectors.map((c) => (
            <li key={c.uid}>
              <button type="button" onClick={() => connect({ connector: c })}>
                {c.name}
              </button>
            </li>
          ))}
        </ul>
        {connectError && <p role="alert">{connectError.message}</p>}
        <p>
          Status: <output data-testid="wagmi-status">{status}</output>
        </p>
        <p>
          Connector: <output data-testid="wagmi-connector">{connector?.name ?? '—'}</output>
        </p>
        <p>
          Address: <output data-testid="wagmi-address">{address ?? '—'}</output>
        </p>
        <p>
          Chain: <output data-testid="wagmi-chain">{chainId}</output>
        </p>
        <h2>Actions</h2>
        <button type="button" onClick={sign} disabled={!address}>
          Sign message
        </button>
        {chains.map((chain) => (
          <button
            key={chain.id}
            type="button"
            disabled={!address || chain.id === chainId}
            onClick={() => switchChain({ chainId: chain.id })}
          >
            Switch to {chain.name}
          </button>
        ))}
        <button type="button" onClick={() => disconnect()} disabled={!address}>
          Disconnect
        </button>
        <p>
          Signature: <output data-testid="signature">{signature ?? '—'}</output>
        </p>
        {(signError || switchError) && <p role="alert">{signError ?? switchError?.message}</p>}
      </section>
      <SendCalls disabled={!address} />
    </main>
  )
}
