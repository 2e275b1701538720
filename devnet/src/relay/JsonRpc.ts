/**
 * The relay's half of JSON-RPC 2.0. A frame off the socket becomes a typed request, response or error here,
 * once, and request params become typed values through the readers below, so the methods never touch raw JSON.
 */
import { type RawData, WebSocket } from 'ws'

type Id = string | number | null
type ErrorObject = { code: number; message: string }
export type Params = Record<string, unknown>

const parseError = { code: -32700, message: 'Parse error' }
const invalidRequest = { code: -32600, message: 'Invalid request' }
export const methodNotFound = { code: -32601, message: 'Method not found' }
export const internalError = { code: -32603, message: 'Internal error' }
export const invalidParams = (message: string) => ({ code: -32602, message })

/** Thrown by the param readers so a handler can bail out mid-way; the caller answers it with -32602. */
export class InvalidParams extends Error {}

export type Frame =
  | { kind: 'request'; id: Id | undefined; method: string; params: unknown }
  | { kind: 'response'; id: unknown; failed: boolean }
  | { kind: 'invalid'; id: Id; error: ErrorObject }

export type Request = Extract<Frame, { kind: 'request' }>
export type Reply = { result: unknown } | { error: ErrorObject }

export function parse(data: RawData): Frame {
  const frame = parseJson(rawText(data))
  if (frame === undefined) return { kind: 'invalid', id: null, error: parseError }
  if (!isRecord(frame)) return { kind: 'invalid', id: null, error: invalidRequest }
  const id = 'id' in frame ? rpcId(frame.id) : undefined
  if ('id' in frame && id === undefined) return { kind: 'invalid', id: null, error: invalidRequest }
  const { method, params } = frame
  if (typeof method === 'string') return { kind: 'request', id, method, params }
  if (!('method' in frame) && ('result' in frame || 'error' in frame)) {
    return { kind: 'response', id: frame.id, failed: !('result' in frame) }
  }
  return { kind: 'invalid', id: id ?? null, error: invalidRequest }
}

export function send(socket: WebSocket, payload: unknown): void {
  if (socket.readyState !== WebSocket.OPEN) return
  socket.send(JSON.stringify(payload))
}

export function ttlOf(params: Params, fallback?: number): number {
  const ttl = params.ttl ?? fallback
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0) {
    throw new InvalidParams('ttl must be a non-negative number of seconds')
  }
  return ttl
}

export function requireTopics(params: Params, key: string): string[] {
  const topics = params[key]
  const valid = Array.isArray(topics) && topics.every(isNonEmptyString)
  if (!valid) throw new InvalidParams(`${key} must be an array of non-empty strings`)
  return topics
}

export function requireString(params: Params, key: string): string {
  const value = params[key]
  if (!isNonEmptyString(value)) throw new InvalidParams(`${key} must be a non-empty string`)
  return value
}

export function optionalString(params: Params, key: string): string | undefined {
  const value = params[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw new InvalidParams(`${key} must be a string`)
  return value
}

export function optionalTag(params: Params): number {
  const tag = params.tag
  if (tag === undefined) return 0
  if (typeof tag !== 'number' || !Number.isInteger(tag)) throw new InvalidParams('tag must be an integer')
  return tag
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export function isRecord(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function rpcId(value: unknown): Id | undefined {
  if (value === null || typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return value
  return undefined
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8')
  return data.toString('utf8')
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}
