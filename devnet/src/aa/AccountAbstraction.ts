/**
 * ERC-4337 and EIP-7702 on the devnet chains, deployed by `Devnet.start` after everything else: the canonical
 * EntryPoints v0.8 and v0.7 (eth-infinitism's npm artifacts, with the salts they were deployed with on every
 * public chain, so they land at their canonical addresses), and ours (`contracts/*.sol`): the smart account's
 * factory, the 7702 account and the verifying paymaster, holding {@link paymasterDeposit} at EntryPoint v0.8.
 * All go through the deterministic deployment proxy anvil has at genesis: their addresses depend on their
 * code alone, never on a nonce. Node only: this module holds the paymaster's signer key.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  type Address,
  concat,
  encodeDeployData,
  getContractAddress,
  type Hex,
  isAddressEqual,
  isHex,
  parseEther,
  zeroHash,
} from 'viem'
import { entryPoint08Abi } from 'viem/account-abstraction'
import { privateKeyToAddress } from 'viem/accounts'
import * as Accounts from '../Accounts.ts'
import { accountAbstraction } from '../Chains.ts'
import type * as Pools from '../dex/Pools.ts'
import { airlock7702AccountBytecode } from './Airlock7702AccountContract.ts'
import { airlockAccountFactoryAbi, airlockAccountFactoryBytecode } from './AirlockAccountFactoryContract.ts'
import { verifyingPaymasterAbi, verifyingPaymasterBytecode } from './VerifyingPaymasterContract.ts'

/**
 * The key the dev stack's API signs sponsorships with (ERC-7677 `pm_getPaymasterData`), and the one signer
 * the devnet's paymaster trusts. Fixed, so a devnet started before the API still trusts it: keccak256 of
 * "airlock devnet paymaster signer". It vouches for gas on these loopback chains only.
 */
export const paymasterSignerKey: Hex = '0x6d24a700d1a75b01ac1b2abfe29f80d0ac4772b0e075d8cfd06a70fe6de07ebc'

/** What the paymaster holds at EntryPoint v0.8 to pay for the operations it sponsors: 100 ETH. */
export const paymasterDeposit = parseEther('100')

/** Foundry's deterministic deployment proxy (Arachnid's): `to` it, salt ‖ creation code deploys with CREATE2. */
const create2Deployer: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C'

/** The salts eth-infinitism deployed the EntryPoints with; ours use zero. */
const entryPointSalts = {
  '0.8': '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9',
  '0.7': '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3',
} as const

const require = createRequire(import.meta.url)

/** Creation code of a hardhat artifact (`artifacts/*.json`, `bytecode` with its 0x), by its path. */
function bytecodeOf(artifact: string): Hex {
  // Read rather than imported: the artifacts are 100–200 KB of JSON that TypeScript would type in full.
  const parsed: unknown = JSON.parse(readFileSync(artifact, 'utf8'))
  const bytecode =
    typeof parsed === 'object' && parsed !== null && 'bytecode' in parsed ? parsed.bytecode : ''
  if (typeof bytecode !== 'string' || !isHex(bytecode) || bytecode.length < 4)
    throw new Error(`${artifact} holds no bytecode`)
  return bytecode
}

type Create2 = { what: string; expected: Address; salt: Hex; initCode: Hex }

let cached: Create2[] | undefined

/** Every contract, in the order it must be deployed (read once per process: both chains deploy them). */
function contracts(): Create2[] {
  cached ??= read()
  return cached
}

function read(): Create2[] {
  const { entryPoint08, entryPoint07, accountFactory, account7702, paymaster } = accountAbstraction
  const owner = Accounts.all()[0]?.address
  if (!owner) throw new Error('no default accounts')
  return [
    {
      what: 'EntryPoint v0.8',
      expected: entryPoint08,
      salt: entryPointSalts['0.8'],
      initCode: bytecodeOf(require.resolve('@account-abstraction/contracts/artifacts/EntryPoint.json')),
    },
    {
      what: 'EntryPoint v0.7',
      expected: entryPoint07,
      salt: entryPointSalts['0.7'],
      initCode: bytecodeOf(require.resolve('@account-abstraction/contracts-v07/artifacts/EntryPoint.json')),
    },
    {
      what: 'smart account factory',
      expected: accountFactory,
      salt: zeroHash,
      initCode: encodeDeployData({
        abi: airlockAccountFactoryAbi,
        bytecode: airlockAccountFactoryBytecode,
        args: [entryPoint08],
      }),
    },
    { what: '7702 account', expected: account7702, salt: zeroHash, initCode: airlock7702AccountBytecode },
    {
      what: 'verifying paymaster',
      expected: paymaster,
      salt: zeroHash,
      // Account 0 owns it, so it may withdraw the deposit: the deployment proxy could not.
      initCode: encodeDeployData({
        abi: verifyingPaymasterAbi,
        bytecode: verifyingPaymasterBytecode,
        args: [entryPoint08, privateKeyToAddress(paymasterSignerKey), owner],
      }),
    },
  ]
}

/** Where a CREATE2 deployment through {@link create2Deployer} lands. */
function addressOf({ salt, initCode }: Create2): Address {
  return getContractAddress({ opcode: 'CREATE2', from: create2Deployer, salt, bytecode: initCode })
}

/**
 * The deployments as batches for `Devnet.start` to settle in order: the EntryPoints, then what asks them
 * (the factory and the paymaster read EntryPoint v0.8 in their constructors) and the paymaster's deposit.
 * Throws if a contract would not land where `Chains.ts` says, e.g. after a recompile changed its code.
 */
export function deployments(): [Pools.Step[], Pools.Step[]] {
  const all = contracts()
  for (const contract of all) {
    // Checked per call, cheap next to a deployment: a hash of each creation code.
    const address = addressOf(contract)
    if (!isAddressEqual(address, contract.expected))
      throw new Error(
        `${contract.what} would deploy at ${address}, not at ${contract.expected}: update accountAbstraction in Chains.ts`,
      )
  }
  const step = (contract: Create2): Pools.Step => ({
    what: `deploying the ${contract.what}`,
    send: (client) =>
      client.sendTransaction({ to: create2Deployer, data: concat([contract.salt, contract.initCode]) }),
  })
  const deposit: Pools.Step = {
    what: 'funding the paymaster',
    send: (client) =>
      client.writeContract({
        address: accountAbstraction.entryPoint08,
        abi: entryPoint08Abi,
        functionName: 'depositTo',
        args: [accountAbstraction.paymaster],
        value: paymasterDeposit,
      }),
  }
  return [all.slice(0, 2).map(step), [...all.slice(2).map(step), deposit]]
}
