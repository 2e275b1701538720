/**
 * The node's WebSocket subscriptions: signatureSubscribe (one notification when the transaction reaches the
 * requested commitment, then the subscription ends, as on the real node), accountSubscribe and slotSubscribe,
 * each with its unsubscribe. Notifications are `{ method: '<kind>Notification', params: { result,
 * subscription } }`, the shape web3.js and @solana/kit listen for.
 */
import type { Address } from '@solana/kit'
import { type RawData, WebSocket } from 'ws'
import type { Bank } from './Bank.ts'
import type { Block } from './Clock.ts'
import * as Encoding from './Encoding.ts'
import * as Json from './Json.ts'
import type { Landed } from './Ledger.ts'
import * as Params from './Params.ts'
import * as Rpc from './Rpc.ts'

type Connection = { socket: WebSocket; afterReply: (() => void)[] }

type Subscription = { id: number; connection: Connection } & (
  | { kind: 'signature'; signature: string; commitment: Params.Commitment; received: boolean }
  | {
      kind: 'account'
      address: Address
      commitment: Params.Commitment
      view: Encoding.View
      pending?: bigint
    }
  | { kind: 'slot' }
)

type Kind = Subscription['kind']

export class PubSub {
  private nextId = 0
  private readonly subscriptions = new Map<number, Subscription>()
  private readonly detach: (() => void)[]

  constructor(private readonly bank: Bank) {
    this.detach = [bank.onLanded((landed) => this.landed(landed)), bank.onSlot((block) => this.slot(block))]
  }

  /** Serves one socket until it closes. */
  accept(socket: WebSocket): void {
    const connection: Connection = { socket, afterReply: [] }
    const methods = this.methodsFor(connection)
    socket.on('message', (data) => void this.onFrame(connection, methods, data))
    socket.on('error', () => {})
    socket.on('close', () => {
      for (const [id, subscription] of this.subscriptions) {
        if (subscription.connection === connection) this.subscriptions.delete(id)
      }
    })
  }

  close(): void {
    for (const detach of this.detach) detach()
    this.subscriptions.clear()
  }

  private async onFrame(connection: Connection, methods: Rpc.Methods, data: RawData): Promise<void> {
    const text = Array.isArray(data)
      ? Buffer.concat(data).toString('utf8')
      : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('utf8')
    const reply = await Rpc.answer(text, methods)
    if (reply !== undefined) send(connection.socket, reply)
    // A subscription that is already satisfied notifies right away, but only after its id went out.
    for (const deliver of connection.afterReply.splice(0)) deliver()
  }

  private methodsFor(connection: Connection): Rpc.Methods {
    const unsubscribe = (kind: Kind) => (params: readonly unknown[]) =>
      this.unsubscribe(connection, kind, params)
    return new Map<string, Rpc.Handler>([
      ['signatureSubscribe', (params) => this.subscribeSignature(connection, params)],
      ['signatureUnsubscribe', unsubscribe('signature')],
      ['accountSubscribe', (params) => this.subscribeAccount(connection, params)],
      ['accountUnsubscribe', unsubscribe('account')],
      ['slotSubscribe', () => this.add({ id: 0, connection, kind: 'slot' })],
      ['slotUnsubscribe', unsubscribe('slot')],
    ])
  }

  private subscribeSignature(connection: Connection, params: readonly unknown[]): number {
    const signature = Params.signature(params[0])
    const config = Params.config(params, 1)
    const commitment = Params.commitment(config)
    const received = Params.optionalBoolean(config, 'enableReceivedNotification') ?? false
    const id = this.add({ id: 0, connection, kind: 'signature', signature, commitment, received })
    const landed = this.bank.ledger.get(signature)
    if (landed) connection.afterReply.push(() => this.settle(id, landed))
    return id
  }

  private subscribeAccount(connection: Connection, params: readonly unknown[]): number {
    const address = Params.address(params, 0)
    const config = Params.config(params, 1)
    const commitment = Params.commitment(config)
    const view = Encoding.viewOf(config, 'binary')
    return this.add({ id: 0, connection, kind: 'account', address, commitment, view })
  }

  private add(subscription: Subscription): number {
    const id = this.nextId++
    this.subscriptions.set(id, { ...subscription, id })
    return id
  }

  private unsubscribe(connection: Connection, kind: Kind, params: readonly unknown[]): boolean {
    const id = params[0]
    const subscription = typeof id === 'number' ? this.subscriptions.get(id) : undefined
    if (!subscription || subscription.connection !== connection || subscription.kind !== kind) {
      throw Rpc.invalidParams('Invalid subscription id.')
    }
    this.subscriptions.delete(subscription.id)
    return true
  }

  private landed(landed: Landed): void {
    for (const subscription of this.subscriptions.values()) {
      if (subscription.kind === 'signature' && subscription.signature === landed.signature) {
        if (subscription.received)
          this.notify(subscription, 'signature', contextual(landed.slot, 'receivedSignature'))
        this.settle(subscription.id, landed)
      } else if (subscription.kind === 'account' && landed.writable.includes(subscription.address)) {
        subscription.pending ??= landed.slot
        this.flushAccount(subscription)
      }
    }
  }

  private slot(block: Block): void {
    const root = this.bank.clock.slotAt('finalized')
    for (const subscription of this.subscriptions.values()) {
      if (subscription.kind === 'slot') {
        this.notify(subscription, 'slot', { parent: block.slot - 1n, root, slot: block.slot })
      } else if (subscription.kind === 'account') {
        this.flushAccount(subscription)
      } else {
        const landed = this.bank.ledger.get(subscription.signature)
        if (landed) this.settle(subscription.id, landed)
      }
    }
  }

  /** Notifies a signature subscription once its transaction reached the commitment, and ends it. */
  private settle(id: number, landed: Landed): void {
    const subscription = this.subscriptions.get(id)
    if (subscription?.kind !== 'signature') return
    if (!this.bank.clock.reached(landed.slot, subscription.commitment)) return
    this.subscriptions.delete(id)
    this.notify(subscription, 'signature', contextual(landed.slot, { err: landed.err }))
  }

  // The account is sent as it is now, which may already hold later processed changes: litesvm keeps only
  // the newest state, not one per commitment level.
  private flushAccount(subscription: Extract<Subscription, { kind: 'account' }>): void {
    const { pending } = subscription
    if (pending === undefined || !this.bank.clock.reached(pending, subscription.commitment)) return
    subscription.pending = undefined
    const { read } = this.bank
    let value: unknown
    try {
      value = Encoding.render(read, read(subscription.address), subscription.view)
    } catch {
      // Data too large for base58: the node sends nothing for such an account either.
      return
    }
    const slot = this.bank.clock.slotAt(subscription.commitment)
    this.notify(subscription, 'account', contextual(slot, value))
  }

  private notify(subscription: Subscription, kind: Kind, result: unknown): void {
    const params = { result, subscription: subscription.id }
    send(
      subscription.connection.socket,
      Json.stringify({ jsonrpc: '2.0', method: `${kind}Notification`, params }),
    )
  }
}

function contextual(slot: bigint, value: unknown): unknown {
  return { context: { slot }, value }
}

function send(socket: WebSocket, text: string): void {
  if (socket.readyState === WebSocket.OPEN) socket.send(text)
}
