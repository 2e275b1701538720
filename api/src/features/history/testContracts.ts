/**
 * Test support: a minimal ERC-721 and ERC-1155 for the history tests, compiled with solc-js (pure JS,
 * offline) on first use. They emit the standard transfer events and keep no more state than that needs.
 */
import solc from 'solc'
import type { Abi, Hex } from 'viem'

const source = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract TestNft721 {
  event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
  string public name;
  string public symbol;
  mapping(uint256 => address) public ownerOf;
  constructor(string memory name_, string memory symbol_) { name = name_; symbol = symbol_; }
  function mint(address to, uint256 id) external { ownerOf[id] = to; emit Transfer(address(0), to, id); }
  function transferFrom(address from, address to, uint256 id) external {
    require(ownerOf[id] == from && msg.sender == from, "not owner");
    ownerOf[id] = to;
    emit Transfer(from, to, id);
  }
}

contract TestNft1155 {
  event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
  event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
  string public name;
  string public symbol;
  constructor(string memory name_, string memory symbol_) { name = name_; symbol = symbol_; }
  function mint(address to, uint256 id, uint256 value) external { emit TransferSingle(msg.sender, address(0), to, id, value); }
  function mintBatch(address to, uint256[] calldata ids, uint256[] calldata values) external {
    emit TransferBatch(msg.sender, address(0), to, ids, values);
  }
}
`

export type Artifact = { abi: Abi; bytecode: Hex }
type Output = {
  errors?: { severity: string; formattedMessage: string }[]
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
}

let compiled: Record<'TestNft721' | 'TestNft1155', Artifact> | undefined

/** The two contracts' ABIs and bytecode (compiled once per process). */
export function testNfts(): Record<'TestNft721' | 'TestNft1155', Artifact> {
  if (compiled) return compiled
  const input = {
    language: 'Solidity',
    sources: { 'TestNfts.sol': { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  }
  const compile: (json: string) => string = solc.compile
  const output: Output = JSON.parse(compile(JSON.stringify(input)))
  const errors = output.errors?.filter((diagnostic) => diagnostic.severity === 'error') ?? []
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'))
  const artifact = (name: string): Artifact => {
    const found = output.contracts?.['TestNfts.sol']?.[name]
    if (!found) throw new Error(`solc produced no ${name}`)
    return { abi: found.abi, bytecode: `0x${found.evm.bytecode.object}` }
  }
  compiled = { TestNft721: artifact('TestNft721'), TestNft1155: artifact('TestNft1155') }
  return compiled
}
