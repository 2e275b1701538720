import { useState } from 'react'
import { type Address, encodeFunctionData, erc20Abi, isAddress, parseUnits } from 'viem'
import { useCallsStatus, useSendCalls } from 'wagmi'

/**
 * EIP-5792 from a dApp: an ERC-20 approve and a transfer of the same amount to one address, sent as one
 * batch with wagmi's `useSendCalls`, its status followed with `useCallsStatus` until it is final.
 */
export function SendCalls({ disabled }: { disabled: boolean }) {
  const [token, setToken] = useState('')
  const [to, setTo] = useState('')
  const [amount, setAmount] = useState('1')
  const { sendCalls, data, error, isPending } = useSendCalls()
  const { data: status } = useCallsStatus({
    id: data?.id ?? '',
    query: {
      enabled: Boolean(data?.id),
      refetchInterval: (query) => (query.state.data?.status === 'pending' || !query.state.data ? 500 : false),
    },
  })
  const ready = isAddress(token) && isAddress(to) && /^\d+(\.\d+)?$/.test(amount)

  const send = () => {
    const value = parseUnits(amount, 18)
    const args = [to as Address, value] as const
    sendCalls({
      calls: [
        { to: token as Address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args }) },
        { to: token as Address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args }) },
      ],
    })
  }

  return (
    <section aria-labelledby="send-calls">
      <h2 id="send-calls">Send calls</h2>
      <label>
        Token <input value={token} onChange={(event) => setToken(event.target.value.trim())} />
      </label>
      <label>
        Recipient <input value={to} onChange={(event) => setTo(event.target.value.trim())} />
      </label>
      <label>
        Amount <input value={amount} onChange={(event) => setAmount(event.target.value.trim())} />
      </label>
      <button type="button" onClick={send} disabled={disabled || !ready || isPending}>
        Approve and transfer
      </button>
      <p>
        Batch: <output data-testid="calls-id">{data?.id ?? '—'}</output>
      </p>
      <p>
        Status: <output data-testid="calls-status">{status?.status ?? '—'}</output>
      </p>
      <p>
        Atomic: <output data-testid="calls-atomic">{status ? String(status.atomic) : '—'}</output>
      </p>
      {error && <p role="alert">{error.message}</p>}
    </section>
  )
}
