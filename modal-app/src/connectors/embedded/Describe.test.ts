import type { Request } from '@airlock/bridge-protocol'
import {
  AddressLookupTableAccount,
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { encodeFunctionData, maxUint256, parseAbi, stringToHex, toHex } from 'viem'
import { expect, describe as group, it } from 'vitest'
import type { Network } from '../../shared/Network.ts'
import { approveTexts } from './approveTexts.ts'
import { type Description, describe } from './Describe.ts'

const { labels, values, warnings, titles } = approveTexts

const devnetA: Network = {
  id: 'eip155:31337',
  namespace: 'eip155',
  name: 'Airlock Devnet A',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrl: '',
  testnet: true,
}
const solanaDevnet: Network = {
  id: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  namespace: 'solana',
  name: 'Solana Devnet',
  nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
  rpcUrl: '',
  testnet: true,
}

const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

const evm = (method: string, params: unknown[] | Record<string, unknown>) =>
  describe({ namespace: 'eip155', method, params }, devnetA, { locale: 'en-US' })

/** The description's rows as `label: value`, which reads well in a failing test. */
const rows = (description: Description) => description.rows.map((row) => `${row.label}: ${row.value}`)

group('personal_sign', () => {
  it('shows a message that decodes to text as that text', () => {
    const message = 'Sign in to example.com\nNonce: 42 ✓ 👨‍👩‍👧'
    const description = evm('personal_sign', [stringToHex(message), account])
    expect(description.title).toBe(titles.signMessage)
    expect(description.message).toEqual({ label: labels.message, text: message })
    expect(rows(description)).toEqual([`${labels.account}: ${account}`])
    expect(description.warnings).toEqual([])
  })

  it('shows bytes that are not UTF-8 as hex', () => {
    const description = evm('personal_sign', ['0xdeadbeef', account])
    expect(description.message).toEqual({ label: labels.hexMessage, text: '0xdeadbeef' })
  })

  it('shows text with a bidi override as hex, since it would read otherwise than it is signed', () => {
    const spoof = stringToHex('Pay 1 ETH \u202E01 ot')
    expect(evm('personal_sign', [spoof, account]).message).toEqual({ label: labels.hexMessage, text: spoof })
  })

  it('cuts a huge message and says how much is left out', () => {
    const description = evm('personal_sign', [stringToHex('a'.repeat(20_000)), account])
    expect(description.message?.text).toBe(`${'a'.repeat(16_384)}${values.cut(20_000 - 16_384)}`)
  })
})

group('eth_sign', () => {
  it('warns that a hash is signed blindly', () => {
    const hash = `0x${'ab'.repeat(32)}`
    const description = evm('eth_sign', [account, hash])
    expect(description.title).toBe(titles.signHash)
    expect(description.message).toEqual({ label: labels.hash, text: hash })
    expect(description.warnings).toEqual([warnings.blindSign])
  })
})

const permit = (chainId: number, value: bigint) => ({
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Permit: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ],
  },
  primaryType: 'Permit',
  domain: { name: 'Airlock Token', version: '1', chainId, verifyingContract: token },
  message: { owner: account, spender: other, value: value.toString(), nonce: 0, deadline: 1_900_000_000 },
})

group('eth_signTypedData_v4', () => {
  it('shows the domain, the primary type and the fields of an ERC-2612 permit, and warns about the spender', () => {
    const description = evm('eth_signTypedData_v4', [account, JSON.stringify(permit(31337, 5n))])
    expect(description.title).toBe(titles.signTypedData)
    expect(rows(description)).toEqual([
      `${labels.account}: ${account}`,
      `${labels.app}: Airlock Token`,
      `${labels.version}: 1`,
      `${labels.chain}: 31337`,
      `${labels.contract}: ${token}`,
      `${labels.type}: Permit`,
      `owner: ${account}`,
      `spender: ${other}`,
      'value: 5',
      'nonce: 0',
      'deadline: 1900000000',
    ])
    expect(description.warnings).toEqual([warnings.permit(other)])
  })

  it('warns when the domain is for another chain than the network, and when a permit is unlimited', () => {
    const description = evm('eth_signTypedData_v4', [account, permit(1, maxUint256)])
    expect(description.warnings).toEqual([
      warnings.otherChain('1', 'Airlock Devnet A'),
      warnings.permit(other),
      warnings.unlimitedPermit,
    ])
  })

  it('warns about a Permit2 allowance, found by its domain name', () => {
    const typed = {
      types: { PermitSingle: [], PermitDetails: [] },
      primaryType: 'PermitSingle',
      domain: { name: 'Permit2', chainId: '0x7a69', verifyingContract: token },
      message: {
        details: { token, amount: (2n ** 160n - 1n).toString(), expiration: 0, nonce: 0 },
        spender: other,
        sigDeadline: 1,
      },
    }
    const description = evm('eth_signTypedData_v4', [account, typed])
    expect(rows(description)).toContain(`details.token: ${token}`)
    expect(description.warnings).toEqual([warnings.permit(other), warnings.unlimitedPermit])
  })

  it('flattens nested fields, and caps their count and length', () => {
    const message = {
      from: { name: 'Ada', wallets: [account, other] },
      contents: 'x'.repeat(500),
      ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, i])),
    }
    const typed = { types: { Mail: [] }, primaryType: 'Mail', domain: { chainId: 31337 }, message }
    const fields = evm('eth_signTypedData_v4', [account, typed]).rows.slice(3)
    expect(fields.slice(0, 4)).toEqual([
      { label: 'from.name', value: 'Ada', mono: false },
      { label: 'from.wallets.0', value: account, mono: true },
      { label: 'from.wallets.1', value: other, mono: true },
      { label: 'contents', value: `${'x'.repeat(120)}${values.cut(380)}`, mono: false },
    ])
    expect(fields).toHaveLength(25)
    expect(fields.at(-1)).toEqual({ label: labels.more, value: values.moreFields(34 - 24) })
  })
})

const erc20 = parseAbi([
  'function transfer(address to, uint256 amount)',
  'function approve(address spender, uint256 amount)',
])
const nft = parseAbi([
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] amounts, bytes data)',
  'function setApprovalForAll(address operator, bool approved)',
])
const send = (fields: Record<string, unknown>, network: Network | undefined = devnetA) =>
  describe({ namespace: 'eip155', method: 'eth_sendTransaction', params: [fields] }, network, {
    locale: 'en-US',
  })

group('eth_sendTransaction', () => {
  it('shows the value in the native currency, every digit of it', () => {
    const description = send({
      from: account,
      to: other,
      value: toHex(1_500_000_000_000_000_001n),
      gas: '0x5208',
    })
    expect(description.title).toBe(titles.sendTransaction)
    expect(rows(description)).toEqual([
      `${labels.network}: Airlock Devnet A`,
      `${labels.from}: ${account}`,
      `${labels.to}: ${other}`,
      `${labels.value}: 1.500000000000000001 ETH`,
      `${labels.gas}: 21,000`,
    ])
    expect(description.warnings).toEqual([])
  })

  it('shows wei when the network is not known', () => {
    const params = [{ to: other, value: '0x2a' }]
    const description = describe({ namespace: 'eip155', method: 'eth_sendTransaction', params }, undefined)
    expect(rows(description)).toEqual([
      `${labels.to}: ${other}`,
      `${labels.value}: ${values.baseUnits('42', 'wei')}`,
    ])
  })

  it('decodes an ERC-20 transfer, its amount in the token’s smallest units', () => {
    const data = encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [other, 1_000_000n] })
    expect(rows(send({ to: token, data }))).toEqual([
      `${labels.network}: Airlock Devnet A`,
      `${labels.contract}: ${token}`,
      `${labels.value}: 0 ETH`,
      `${labels.action}: ${approveTexts.actions.transfer}`,
      `${labels.recipient}: ${other}`,
      `${labels.rawAmount}: 1,000,000`,
      `${labels.note}: ${values.tokenDecimals}`,
    ])
  })

  it('warns about an unlimited approve, and not about a limited one', () => {
    const unlimited = encodeFunctionData({ abi: erc20, functionName: 'approve', args: [other, maxUint256] })
    const limited = encodeFunctionData({ abi: erc20, functionName: 'approve', args: [other, 25n] })
    const all = send({ to: token, data: unlimited })
    expect(rows(all)).toContain(`${labels.amount}: ${values.unlimited}`)
    expect(all.warnings).toEqual([warnings.unlimitedApprove(other)])
    expect(rows(send({ to: token, data: limited }))).toContain(`${labels.rawAmount}: 25`)
    expect(send({ to: token, data: limited }).warnings).toEqual([])
  })

  it('decodes ERC-721 and ERC-1155 transfers', () => {
    const single = encodeFunctionData({
      abi: nft,
      functionName: 'safeTransferFrom',
      args: [account, other, 7n],
    })
    expect(rows(send({ to: token, data: single })).slice(3)).toEqual([
      `${labels.action}: ${approveTexts.actions.nftTransfer}`,
      `${labels.from}: ${account}`,
      `${labels.recipient}: ${other}`,
      `${labels.tokenId}: 7`,
    ])
    const multi = encodeFunctionData({
      abi: nft,
      functionName: 'safeTransferFrom',
      args: [account, other, 3n, 2_500n, '0x'],
    })
    expect(rows(send({ to: token, data: multi }))).toEqual(
      expect.arrayContaining([`${labels.tokenId}: 3`, `${labels.amount}: 2,500`]),
    )
    const batch = encodeFunctionData({
      abi: nft,
      functionName: 'safeBatchTransferFrom',
      args: [account, other, [1n, 2n], [10n, 20n], '0x'],
    })
    expect(rows(send({ to: token, data: batch }))).toContain(`${labels.tokens}: 1 × 10, 2 × 20`)
  })

  it('warns that setApprovalForAll hands over every token of the collection, and not when it revokes', () => {
    const grant = encodeFunctionData({ abi: nft, functionName: 'setApprovalForAll', args: [other, true] })
    const revoke = encodeFunctionData({ abi: nft, functionName: 'setApprovalForAll', args: [other, false] })
    expect(send({ to: token, data: grant }).warnings).toEqual([warnings.approveAll(other)])
    expect(rows(send({ to: token, data: revoke }))).toContain(`${labels.approved}: ${values.no}`)
    expect(send({ to: token, data: revoke }).warnings).toEqual([])
  })

  it('shows another call’s selector, size and data', () => {
    const data = encodeFunctionData({ abi: parseAbi(['function mint(uint256)']), args: [1n] })
    const description = send({ to: token, data })
    expect(rows(description).slice(3)).toEqual([`${labels.function}: 0xa0712d68`, `${labels.data}: 36 bytes`])
    expect(description.message).toEqual({ label: labels.data, text: data })
  })

  it('describes a contract deployment when there is no `to`', () => {
    const description = send({ from: account, data: '0x6080604052' })
    expect(description.title).toBe(titles.deploy)
    expect(rows(description)).toEqual([
      `${labels.network}: Airlock Devnet A`,
      `${labels.from}: ${account}`,
      `${labels.to}: ${values.newContract}`,
      `${labels.value}: 0 ETH`,
      `${labels.data}: 5 bytes`,
    ])
  })

  it('warns when the transaction names another chain', () => {
    expect(send({ to: other, chainId: '0x1' }).warnings).toEqual([
      warnings.otherChain('1', 'Airlock Devnet A'),
    ])
  })
})

// Token program instruction data, as @solana-program/token encodes it (TransferChecked 1.5 with 6
// decimals, ApproveChecked 0.05 with 2 decimals).
const transferChecked = Buffer.from('0c60e316000000000006', 'hex')
const approveChecked = Buffer.from('0d050000000000000002', 'hex')
const tokenProgram = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')
const token2022 = new PublicKey('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb')
const ata = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL')
const memoProgram = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr')
const payer = Keypair.fromSeed(new Uint8Array(32).fill(1)).publicKey
const [a, b, c, mint] = [2, 3, 4, 5].map((n) => Keypair.fromSeed(new Uint8Array(32).fill(n)).publicKey) as [
  PublicKey,
  PublicKey,
  PublicKey,
  PublicKey,
]
const blockhash = PublicKey.default.toBase58()
const solana = (
  method: 'solana:signTransaction' | 'solana:signAndSendTransaction',
  wire: Uint8Array,
  chain?: string,
) =>
  describe(
    {
      namespace: 'solana',
      method,
      params: { address: payer.toBase58(), transaction: wire, chain: chain ?? 'solana:devnet' },
    } as Request,
    solanaDevnet,
    { locale: 'en-US' },
  )
const key = (pubkey: PublicKey, isWritable = true) => ({ pubkey, isSigner: false, isWritable })

group('Solana', () => {
  it('shows a message as text, or as hex when it is not text', () => {
    const message = (bytes: Uint8Array) =>
      describe(
        {
          namespace: 'solana',
          method: 'solana:signMessage',
          params: { address: payer.toBase58(), message: bytes },
        },
        solanaDevnet,
      )
    expect(message(new TextEncoder().encode('gm')).message).toEqual({ label: labels.message, text: 'gm' })
    expect(message(new Uint8Array([0xff, 0x00])).message).toEqual({
      label: labels.hexMessage,
      text: '0xff00',
    })
  })

  it('names the programs of a legacy transaction and shows a System transfer in SOL', () => {
    const tx = new Transaction({ feePayer: payer, recentBlockhash: blockhash }).add(
      ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 5_000 }),
      SystemProgram.transfer({ fromPubkey: payer, toPubkey: a, lamports: 1_500_000_001n }),
      new TransactionInstruction({ programId: memoProgram, keys: [], data: Buffer.from('thanks') }),
    )
    const description = solana('solana:signTransaction', tx.serialize({ requireAllSignatures: false }))
    expect(description.title).toBe(titles.signTransaction)
    expect(rows(description)).toEqual([
      `${labels.network}: Solana Devnet`,
      `${labels.account}: ${payer.toBase58()}`,
      `${labels.feePayer}: ${payer.toBase58()}`,
      `Compute Budget: ${approveTexts.solana.computeLimit('200,000')}`,
      `Compute Budget: ${approveTexts.solana.computePrice('5,000')}`,
      `System Program: ${approveTexts.solana.transfer('1.500000001 SOL', a.toBase58())}`,
      'Memo: “thanks”',
    ])
    expect(description.warnings).toEqual([])
  })

  it('reads a v0 transaction: token transfers, a delegate, an unknown program, lookup tables', () => {
    const unknownProgram = Keypair.fromSeed(new Uint8Array(32).fill(9)).publicKey
    const table = new AddressLookupTableAccount({
      key: Keypair.fromSeed(new Uint8Array(32).fill(8)).publicKey,
      state: {
        deactivationSlot: 2n ** 64n - 1n,
        lastExtendedSlot: 0,
        lastExtendedSlotStartIndex: 0,
        addresses: [c],
      },
    })
    const instructions = [
      new TransactionInstruction({ programId: ata, keys: [key(payer), key(a)], data: Buffer.from([1]) }),
      new TransactionInstruction({
        programId: tokenProgram,
        keys: [key(a), key(mint, false), key(b), { pubkey: payer, isSigner: true, isWritable: false }],
        data: transferChecked,
      }),
      new TransactionInstruction({
        programId: token2022,
        keys: [key(a), key(mint, false), key(c, false), { pubkey: payer, isSigner: true, isWritable: false }],
        data: approveChecked,
      }),
      new TransactionInstruction({ programId: unknownProgram, keys: [], data: Buffer.from([1, 2]) }),
    ]
    const message = new TransactionMessage({ payerKey: payer, recentBlockhash: blockhash, instructions })
    const wire = new VersionedTransaction(message.compileToV0Message([table])).serialize()
    const description = solana('solana:signAndSendTransaction', wire)
    expect(description.title).toBe(titles.sendTransaction)
    expect(rows(description).slice(3)).toEqual([
      `Associated Token Account: ${approveTexts.solana.createTokenAccount}`,
      `SPL Token: ${approveTexts.solana.tokenTransferChecked('1.5', mint.toBase58(), b.toBase58())}`,
      `Token-2022: ${approveTexts.solana.tokenApprove('0.05', values.lookupTable)}`,
      `${labels.program}: ${unknownProgram.toBase58()}`,
    ])
    expect(description.warnings).toEqual([warnings.delegate(values.lookupTable), warnings.lookupTables])
  })

  it('warns when the transaction is for another chain than the network', () => {
    const tx = new Transaction({ feePayer: payer, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: payer, toPubkey: a, lamports: 1 }),
    )
    const description = solana(
      'solana:signTransaction',
      tx.serialize({ requireAllSignatures: false }),
      'solana:mainnet',
    )
    expect(description.warnings).toEqual([warnings.otherChain('solana:mainnet', 'Solana Devnet')])
  })
})

group('requests it cannot read', () => {
  it.each([
    ['personal_sign', { message: 'hi' }],
    ['personal_sign', [42, account]],
    ['eth_signTypedData_v4', [account, '{not json']],
    ['eth_signTypedData_v4', [account, { message: {} }]],
    ['eth_sendTransaction', [{ to: 'nope' }]],
    ['eth_sendTransaction', [{ to: other, value: '1.5' }]],
    ['eth_sendTransaction', []],
  ])('%s with %j yields a warning and the raw params', (method, params) => {
    const description = evm(method, params)
    expect(description.warnings).toEqual([warnings.unreadable])
    expect(description.rows).toEqual([{ label: labels.method, value: method, mono: true }])
    expect(description.message).toEqual({ label: labels.request, text: JSON.stringify(params) })
  })

  it('cuts long raw params', () => {
    const description = evm('eth_sendTransaction', [{ to: 'x'.repeat(5_000) }])
    expect(description.message?.text).toHaveLength(2_000 + values.cut(5_011 - 2_000).length)
  })

  it('reads no transaction in bytes that are not one', () => {
    const description = solana('solana:signTransaction', new Uint8Array([1, 2, 3]))
    expect(description.title).toBe(titles.signTransaction)
    expect(description.warnings).toEqual([warnings.unreadable])
  })

  it('reads no transfer from a System instruction cut short', () => {
    const tx = new Transaction({ feePayer: payer, recentBlockhash: blockhash }).add(
      new TransactionInstruction({
        programId: SystemProgram.programId,
        keys: [key(payer), key(a)],
        data: Buffer.from([2, 0, 0, 0, 1]),
      }),
    )
    expect(solana('solana:signTransaction', tx.serialize({ requireAllSignatures: false })).warnings).toEqual([
      warnings.unreadable,
    ])
  })
})

group('EIP-5792 batches', () => {
  it('lists every call of a batch under its number, decoded as its own transaction would be', () => {
    const approve = encodeFunctionData({ abi: erc20, functionName: 'approve', args: [other, maxUint256] })
    const transfer = encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [other, 7n] })
    const params = [
      {
        version: '2.0.0',
        chainId: '0x7a69',
        atomicRequired: true,
        calls: [
          { to: token, data: approve },
          { to: token, data: transfer },
          { to: other, value: '0xde0b6b3a7640000' },
        ],
      },
    ]
    const description = describe({ namespace: 'eip155', method: 'wallet_sendCalls', params }, devnetA)
    expect(description.title).toBe(titles.sendCalls(3))
    expect(description.title).toBe('Send 3 calls at once')
    expect(rows(description)).toEqual([
      `${labels.network}: Airlock Devnet A`,
      `${labels.call(1)}: ${titles.sendTransaction}`,
      `${labels.contract}: ${token}`,
      `${labels.value}: 0 ETH`,
      `${labels.action}: ${approveTexts.actions.approve}`,
      `${labels.spender}: ${other}`,
      `${labels.amount}: ${values.unlimited}`,
      `${labels.note}: ${values.tokenDecimals}`,
      `${labels.call(2)}: ${titles.sendTransaction}`,
      `${labels.contract}: ${token}`,
      `${labels.value}: 0 ETH`,
      `${labels.action}: ${approveTexts.actions.transfer}`,
      `${labels.recipient}: ${other}`,
      `${labels.rawAmount}: 7`,
      `${labels.note}: ${values.tokenDecimals}`,
      `${labels.call(3)}: ${titles.sendTransaction}`,
      `${labels.to}: ${other}`,
      `${labels.value}: 1 ETH`,
    ])
    // A call's warning shows once for the batch.
    expect(description.warnings).toEqual([warnings.unlimitedApprove(other)])
  })
})

group('other methods', () => {
  it('shows the method and its params as JSON, with a word of caution', () => {
    const params = [{ version: '2.0.0', calls: [{ to: other, value: 1n }] }]
    const description = describe({ namespace: 'eip155', method: 'eth_sendUserOperation', params }, devnetA)
    expect(description).toEqual({
      title: titles.other,
      rows: [{ label: labels.method, value: 'eth_sendUserOperation', mono: true }],
      message: {
        label: labels.parameters,
        text: `[{"version":"2.0.0","calls":[{"to":"${other}","value":"1"}]}]`,
      },
      warnings: [warnings.generic],
    })
  })
})
