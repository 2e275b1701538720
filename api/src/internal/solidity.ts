/**
 * Test support: Solidity compiled with solc-js (pure JS, offline) when a test first needs it, for contracts
 * that only tests deploy.
 */
import solc from 'solc'
import type { Abi, Hex } from 'viem'

export type Artifact = { abi: Abi; bytecode: Hex }

type Output = {
  errors?: { severity: string; formattedMessage: string }[]
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
}

/**
 * Every contract of one source file, by name; throws with solc's messages when it does not compile.
 * @example const { TestNft721 } = Solidity.compile('TestNfts.sol', source)
 */
export function compile(file: string, source: string): Record<string, Artifact> {
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // The devnet's contracts are built for cancun too: every anvil the project runs supports it.
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  }
  const run: (json: string) => string = solc.compile
  const output: Output = JSON.parse(run(JSON.stringify(input)))
  const errors = output.errors?.filter((diagnostic) => diagnostic.severity === 'error') ?? []
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'))
  return Object.fromEntries(
    Object.entries(output.contracts?.[file] ?? {}).map(([name, found]) => [
      name,
      { abi: found.abi, bytecode: `0x${found.evm.bytecode.object}` as Hex },
    ]),
  )
}
