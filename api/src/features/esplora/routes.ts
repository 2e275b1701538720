/**
 * An Esplora-compatible subset (Blockstream's and mempool.space's REST API: same paths, semantics and JSON
 * shapes, values in satoshis) for one Bitcoin-family chain, served from its node through an {@link Explorer}:
 * - `GET /address/{address}` → `{ address, chain_stats, mempool_stats }`, each `{ funded_txo_count,
 *   funded_txo_sum, spent_txo_count, spent_txo_sum, tx_count }`.
 * - `GET /address/{address}/utxo` → `[{ txid, vout, status, value }]`, newest first, mempool ones included
 *   and those spent in the mempool left out.
 * - `GET /address/{address}/txs` → up to 50 mempool then 25 confirmed transactions, newest first;
 *   `/txs/mempool` and `/txs/chain[/{last_seen_txid}]` page them as Esplora does.
 * - `GET /tx/{txid}` → Esplora's transaction JSON (no `*_asm` fields); `GET /tx/{txid}/status` → `status`.
 * - `POST /tx` with the raw transaction in hex as the body → the txid, as text.
 * - `GET /blocks/tip/height`, `GET /blocks/tip/hash` → text.
 * - `GET /fee-estimates` → `{ "1": sat/vB, …, "25", "144", "504", "1008" }`; where the node cannot
 *   estimate (regtest), the mempool's minimum fee rate.
 *
 * Errors, as `{ message }`: 400 `Invalid address for {chainId}: {address}` (an address of another network
 * too), `Invalid txid: expected 64 hex digits`, `The body is not a raw transaction in hex`, or the node's
 * own reason when it refuses a broadcast (`min relay fee not met, …`, `bad-txns-inputs-missingorspent`);
 * 404 `Transaction not found`; 502 `The RPC of {chainId} is unavailable`.
 */
import { type Context, Hono } from 'hono'
import { HttpError, onError } from '../../http/errors.ts'
import type { Env } from '../../http/project.ts'
import * as Explorer from './Explorer.ts'
import { messages } from './messages.ts'
import { NodeError } from './Node.ts'

/** Either what an explorer needs, or one already made (and shared, e.g. with the balances route). */
export type EsploraOptions = Explorer.ExplorerOptions | { explorer: Explorer.Explorer }

const txidPattern = /^[0-9a-f]{64}$/i
const rawTxPattern = /^(?:[0-9a-f]{2})+$/i

function txidOf(c: Context): string {
  const txid = c.req.param('txid') ?? ''
  if (!txidPattern.test(txid)) throw new HttpError(400, messages.invalidTxid)
  return txid.toLowerCase()
}

/**
 * @example
 * const explorer = Explorer.create({ rpcUrl, network, chainId: 'bip122:530827f38f93b43ed12af0b3ad25a288' })
 * app.route('/v1/bip122/530827f38f93b43ed12af0b3ad25a288/esplora', Esplora.create({ explorer }))
 */
export function create(options: EsploraOptions): Hono<Env> {
  const explorer = 'explorer' in options ? options.explorer : Explorer.create(options)
  const app = new Hono<Env>()
  const address = (c: Context) => c.req.param('address') ?? ''

  app.get('/address/:address', async (c) => c.json(await explorer.address(address(c))))
  app.get('/address/:address/utxo', async (c) => c.json(await explorer.utxos(address(c))))
  app.get('/address/:address/txs', async (c) => c.json(await explorer.txs(address(c))))
  app.get('/address/:address/txs/mempool', async (c) =>
    c.json(await explorer.txs(address(c), { mempool: true })),
  )
  app.get('/address/:address/txs/chain', async (c) => c.json(await explorer.txs(address(c), { chain: true })))
  app.get('/address/:address/txs/chain/:txid', async (c) =>
    c.json(await explorer.txs(address(c), { chain: true, afterTxid: txidOf(c) })),
  )

  app.get('/tx/:txid', async (c) => {
    const tx = await explorer.tx(txidOf(c))
    if (!tx) throw new HttpError(404, messages.txNotFound)
    return c.json(tx)
  })
  app.get('/tx/:txid/status', async (c) => {
    const tx = await explorer.tx(txidOf(c))
    if (!tx) throw new HttpError(404, messages.txNotFound)
    return c.json(tx.status)
  })
  app.post('/tx', async (c) => {
    const raw = (await c.req.text()).trim()
    if (!rawTxPattern.test(raw)) throw new HttpError(400, messages.invalidRawTransaction)
    try {
      return c.text(await explorer.broadcast(raw))
    } catch (error) {
      // The node read the transaction and refused it: its reason is what the sender needs to fix it.
      if (error instanceof NodeError) throw new HttpError(400, error.reason)
      throw error
    }
  })

  app.get('/blocks/tip/height', async (c) => c.text(String((await explorer.tip()).height)))
  app.get('/blocks/tip/hash', async (c) => c.text((await explorer.tip()).hash))
  app.get('/fee-estimates', async (c) => c.json(await explorer.feeEstimates()))

  app.onError(onError)
  return app
}
