/**
 * Calldata of the token calls that move or unlock assets (ERC-20, ERC-721, ERC-1155), decoded; any other
 * call shows its 4-byte selector and size. Token decimals are not known here (that needs the chain), so
 * amounts stay in the token's smallest units and the preview says so.
 */
import { decodeFunctionData, type Hex, maxUint256, parseAbi, size, slice } from 'viem'
import { approveTexts } from '../approveTexts.ts'
import type { Description, Row } from '../Describe.ts'
import { cut, limits, whole } from './readable.ts'

export type Call = Pick<Description, 'rows' | 'warnings' | 'message'>

// ERC-20's transferFrom and approve share their selectors with ERC-721's (an amount there is a token id).
const abi = parseAbi([
  'function transfer(address to, uint256 amount)',
  'function approve(address spender, uint256 amount)',
  'function transferFrom(address from, address to, uint256 amount)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] amounts, bytes data)',
  'function setApprovalForAll(address operator, bool approved)',
])

const { labels, values, actions, warnings: warn } = approveTexts

/** The call `data` makes; `data` has at least one byte. */
export function describeCall(data: Hex, locale?: string): Call {
  let decoded: ReturnType<typeof decodeFunctionData<typeof abi>>
  try {
    decoded = decodeFunctionData({ abi, data })
  } catch {
    return unknown(data)
  }
  const action = (value: string): Row => ({ label: labels.action, value })
  const address = (label: string, value: string): Row => ({ label, value, mono: true })
  const raw = (label: string, value: bigint): Row => ({ label, value: whole(value, locale) })
  const note: Row = { label: labels.note, value: values.tokenDecimals }
  switch (decoded.functionName) {
    case 'transfer': {
      const [to, amount] = decoded.args
      return {
        rows: [action(actions.transfer), address(labels.recipient, to), raw(labels.rawAmount, amount), note],
        warnings: [],
      }
    }
    case 'approve': {
      const [spender, amount] = decoded.args
      const all = amount === maxUint256
      return {
        rows: [
          action(actions.approve),
          address(labels.spender, spender),
          all ? { label: labels.amount, value: values.unlimited } : raw(labels.rawAmount, amount),
          note,
        ],
        warnings: all ? [warn.unlimitedApprove(spender)] : [],
      }
    }
    case 'transferFrom': {
      const [from, to, amount] = decoded.args
      return {
        rows: [
          action(actions.transferFrom),
          address(labels.from, from),
          address(labels.recipient, to),
          raw(labels.rawAmount, amount),
          note,
        ],
        warnings: [],
      }
    }
    case 'safeTransferFrom': {
      const [from, to, id] = decoded.args
      const parties = [address(labels.from, from), address(labels.recipient, to), raw(labels.tokenId, id)]
      // The 5-argument form is ERC-1155's (with an amount); the others are ERC-721's.
      if (decoded.args.length === 5)
        return {
          rows: [action(actions.multiTransfer), ...parties, raw(labels.amount, decoded.args[3])],
          warnings: [],
        }
      return { rows: [action(actions.nftTransfer), ...parties], warnings: [] }
    }
    case 'safeBatchTransferFrom': {
      const [from, to, ids, amounts] = decoded.args
      const tokens = ids.map((id, i) => `${whole(id, locale)} × ${whole(amounts[i] ?? 0n, locale)}`)
      return {
        rows: [
          action(actions.batchTransfer),
          address(labels.from, from),
          address(labels.recipient, to),
          { label: labels.tokens, value: cut(tokens.join(', '), limits.field * 4) },
        ],
        warnings: [],
      }
    }
    case 'setApprovalForAll': {
      const [operator, approved] = decoded.args
      return {
        rows: [
          action(actions.approveAll),
          address(labels.operator, operator),
          { label: labels.approved, value: approved ? values.yes : values.no },
        ],
        warnings: approved ? [warn.approveAll(operator)] : [],
      }
    }
  }
}

/** A call this preview cannot decode: which function (its selector), how much data, and the data. */
function unknown(data: Hex): Call {
  const rows: Row[] = []
  if (size(data) >= 4) rows.push({ label: labels.function, value: slice(data, 0, 4), mono: true })
  rows.push({ label: labels.data, value: values.bytes(size(data)) })
  return { rows, warnings: [], message: { label: labels.data, text: cut(data, limits.message) } }
}
