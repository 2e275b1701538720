/**
 * Test support: a minimal ERC-721 and ERC-1155 for the history tests, compiled on first use. They emit the
 * standard transfer events and keep no more state than that needs.
 */
import { type Artifact, compile } from '../../internal/solidity.ts'

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

let compiled: Record<'TestNft721' | 'TestNft1155', Artifact> | undefined

/** The two contracts' ABIs and bytecode (compiled once per process). */
export function testNfts(): Record<'TestNft721' | 'TestNft1155', Artifact> {
  if (compiled) return compiled
  const { TestNft721, TestNft1155 } = compile('TestNfts.sol', source)
  if (!TestNft721 || !TestNft1155) throw new Error('solc produced no TestNft721 or TestNft1155')
  compiled = { TestNft721, TestNft1155 }
  return compiled
}
