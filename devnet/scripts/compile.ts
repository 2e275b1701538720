/**
 * Compiles the devnet's contracts (`contracts/*.sol`) with solc-js (pure JS, no native solc needed) and
 * writes one module per contract under `src/` with its ABI and bytecode. Run with
 * `npm run -w @airlock/devnet compile`; commit the generated files so that nobody needs the compiler just to
 * start the devnet.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import solc from 'solc'
import { parseAbi } from 'viem'

type Target = {
  contract: string
  /** The prefix of the exported names: `${name}Abi`, `${name}Bytecode`. */
  name: string
  /**
   * `json`: the ABI as solc writes it. `signatures`: human-readable signatures for viem's `parseAbi`, for
   * ABIs that would run to hundreds of lines as JSON (an ERC-721, an ERC-1155).
   */
  abi: 'json' | 'signatures'
  /** Where the module goes, under `src/`. @default `${contract}.ts` */
  out?: string
  /** Whether to export the creation code: not for a contract only another deploys. @default true */
  bytecode?: boolean
}

const targets: Target[] = [
  { contract: 'TestToken', name: 'testToken', abi: 'json' },
  { contract: 'TestCollectible', name: 'testCollectible', abi: 'signatures' },
  { contract: 'TestItems', name: 'testItems', abi: 'signatures' },
  {
    contract: 'UniversalResolver',
    name: 'universalResolver',
    abi: 'signatures',
    out: 'ens/UniversalResolverContract.ts',
  },
  // The smart accounts' contracts (`aa/AccountAbstraction.ts` deploys them): their ABIs take tuples (a user
  // operation, a batch of calls), which signatures cannot spell. The account is deployed by its factory.
  {
    contract: 'AirlockAccount',
    name: 'airlockAccount',
    abi: 'json',
    out: 'aa/AirlockAccountContract.ts',
    bytecode: false,
  },
  {
    contract: 'AirlockAccountFactory',
    name: 'airlockAccountFactory',
    abi: 'json',
    out: 'aa/AirlockAccountFactoryContract.ts',
  },
  {
    contract: 'Airlock7702Account',
    name: 'airlock7702Account',
    abi: 'json',
    out: 'aa/Airlock7702AccountContract.ts',
  },
  {
    contract: 'VerifyingPaymaster',
    name: 'verifyingPaymaster',
    abi: 'json',
    out: 'aa/VerifyingPaymasterContract.ts',
  },
]

const contractsDir = fileURLToPath(new URL('../contracts/', import.meta.url))
// Where npm puts the packages our contracts import (`@account-abstraction/contracts`, `@openzeppelin/contracts`):
// the workspace's own node_modules, then the repo's, as Node would look.
const packageDirs = ['../node_modules/', '../../node_modules/'].map((dir) =>
  fileURLToPath(new URL(dir, import.meta.url)),
)
const srcDir = fileURLToPath(new URL('../src/', import.meta.url))

type Diagnostic = {
  severity: 'error' | 'warning' | 'info'
  formattedMessage: string
  sourceLocation?: { file: string }
}
type Parameter = { name: string; type: string; indexed?: boolean }
type AbiItem = {
  type: 'function' | 'event' | 'error' | 'constructor' | 'fallback' | 'receive'
  name?: string
  inputs?: Parameter[]
  outputs?: Parameter[]
  stateMutability?: string
}
type Artifact = { abi: AbiItem[]; evm: { bytecode: { object: string } } }
type Output = { errors?: Diagnostic[]; contracts?: Record<string, Record<string, Artifact>> }

function input(): string {
  // Every file goes in one input, so imports (`./DataUri.sol`) resolve without a callback. A contract's
  // bytecode depends only on the files it uses, so adding a file changes no other contract's bytecode.
  const files = readdirSync(contractsDir).filter((file) => file.endsWith('.sol'))
  return JSON.stringify({
    language: 'Solidity',
    sources: Object.fromEntries(
      files.map((file) => [file, { content: readFileSync(contractsDir + file, 'utf8') }]),
    ),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // Cancun runs on every recent anvil and on the foundry docker image, whatever their default hardfork.
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  })
}

/**
 * Reads a source our files import from a package, e.g. `@openzeppelin/contracts/utils/Create2.sol`; solc
 * resolves a package file's relative imports (`../core/Helpers.sol`) to such names itself.
 */
function findImport(path: string): { contents: string } | { error: string } {
  for (const dir of packageDirs) {
    if (existsSync(dir + path)) return { contents: readFileSync(dir + path, 'utf8') }
  }
  return { error: `${path} is in no node_modules (${packageDirs.join(', ')})` }
}

function compile(): Output {
  const compileStandard: (json: string, callbacks: { import: typeof findImport }) => string = solc.compile
  const output: Output = JSON.parse(compileStandard(input(), { import: findImport }))
  const diagnostics = output.errors ?? []
  // A package's own warnings (`@…/…`) are its authors' to fix; ours and every error are shown.
  const shown = diagnostics.filter((d) => d.severity === 'error' || !d.sourceLocation?.file.startsWith('@'))
  for (const d of shown) console.error(d.formattedMessage)
  if (diagnostics.some((d) => d.severity === 'error')) throw new Error('the contracts failed to compile')
  return output
}

/** One ABI item as abitype's human-readable signature, e.g. `function ownerOf(uint256 tokenId) view returns (address)`. */
function signature(item: AbiItem): string {
  const list = (parameters: Parameter[] = []) =>
    parameters
      .map(({ name, type, indexed }) => {
        if (type.startsWith('tuple')) throw new Error(`${item.name}: tuples are not written as signatures`)
        return [type, indexed ? 'indexed' : '', name].filter(Boolean).join(' ')
      })
      .join(', ')
  if (item.type === 'constructor')
    return `constructor(${list(item.inputs)})${item.stateMutability === 'payable' ? ' payable' : ''}`
  if (item.type !== 'function') return `${item.type} ${item.name}(${list(item.inputs)})`
  const mutability = item.stateMutability === 'nonpayable' ? '' : ` ${item.stateMutability}`
  const returns = item.outputs?.length ? ` returns (${list(item.outputs)})` : ''
  return `function ${item.name}(${list(item.inputs)})${mutability}${returns}`
}

function abiSource(target: Target, abi: AbiItem[]): string {
  if (target.abi === 'json')
    return `export const ${target.name}Abi = ${JSON.stringify(abi, null, 2)} as const`
  const signatures = abi.map(signature)
  // parseAbi must read back every item, or the module would fail at import instead of here.
  if (parseAbi(signatures).length !== abi.length) throw new Error(`${target.contract}: signatures lost items`)
  return [
    `export const ${target.name}Abi = parseAbi([`,
    // Signatures hold no quotes or backslashes: they go in as they are.
    ...signatures.map((line) => `  '${line}',`),
    '])',
  ].join('\n')
}

function render(target: Target, artifact: Artifact, version: string): string {
  return [
    `// Generated by devnet/scripts/compile.ts from devnet/contracts/${target.contract}.sol (solc ${version}). Do not edit.`,
    '',
    ...(target.abi === 'signatures' ? ["import { parseAbi } from 'viem'", ''] : []),
    abiSource(target, artifact.abi),
    '',
    ...(target.bytecode === false
      ? []
      : [`export const ${target.name}Bytecode = '0x${artifact.evm.bytecode.object}' as const`, '']),
  ].join('\n')
}

const version: string = solc.version()
const output = compile()
const written = targets.map((target) => {
  const artifact = output.contracts?.[`${target.contract}.sol`]?.[target.contract]
  if (!artifact) throw new Error(`solc produced no ${target.contract} artifact`)
  const path = `${srcDir}${target.out ?? `${target.contract}.ts`}`
  writeFileSync(path, render(target, artifact, version))
  return path
})
// Keep the generated files in the repo's style so `biome check` stays clean without a manual step.
execFileSync('npx', ['biome', 'format', '--write', ...written], { stdio: 'inherit' })
for (const path of written) console.log(`wrote ${path}`)
