/**
 * Who may open a socket: at most `perAddress` open at once from one address, counted from the upgrade
 * request until its TCP connection closes (a handshake that fails frees its place too). Beyond that the
 * upgrade is refused with plain HTTP before any WebSocket exists, so a flood of sockets costs a line each.
 */
import type { Duplex } from 'node:stream'

export type Gate = {
  /** Counts the connection from `address` in, or says it is one too many. */
  admit(address: string | undefined, socket: Duplex): boolean
}

/** @example const gate = Gate.create(64); if (!gate.admit(request.socket.remoteAddress, socket)) Gate.refuse(socket, 429) */
export function create(perAddress: number): Gate {
  const open = new Map<string, number>()
  return {
    admit(peer, socket) {
      const address = peer ?? 'unknown'
      const count = open.get(address) ?? 0
      if (count >= perAddress) return false
      open.set(address, count + 1)
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1
        if (left > 0) open.set(address, left)
        else open.delete(address)
      })
      return true
    },
  }
}

const reasons: Record<number, string> = { 429: 'Too Many Requests', 503: 'Service Unavailable' }

/** Answers an upgrade request with `status` and closes the connection. */
export function refuse(socket: Duplex, status: 429 | 503): void {
  socket.end(`HTTP/1.1 ${status} ${reasons[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
  socket.once('finish', () => socket.destroy())
  socket.on('error', () => {})
}
