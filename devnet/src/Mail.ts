/**
 * The development mail catcher for `npm start` and the tests: maildev's SMTP server takes every message the
 * API sends (its email login codes) and keeps it, and its web UI and HTTP API show what arrived. Nothing is
 * delivered anywhere. `inbox()` reads a running catcher over HTTP only, so a test process that did not start
 * it (the e2e journeys) can read the codes too.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { urlHost } from './Process.ts'

export type StartOptions = {
  /** SMTP port; 0 picks a free one. @default 1025 */
  smtpPort?: number
  /** Port of the web UI and its HTTP API; 0 picks a free one. @default 1080 */
  webPort?: number
  /**
   * Interface both servers bind. Loopback by default, overriding maildev's own defaults (`::` for SMTP,
   * `0.0.0.0` for the web), because whoever reaches the catcher reads every login code. @default '127.0.0.1'
   */
  host?: string
}

/** One caught message, as the HTTP API reports it. */
export type Message = {
  id: string
  /** The message's `Date` header (whole seconds), or when it arrived if it had none. */
  time: Date
  from: string[]
  /** Every recipient, lower-cased: the `To` and `Cc` headers and the SMTP envelope (so Bcc too). */
  to: string[]
  subject: string
  text: string
  /** The first 6-digit number of the subject, else of the text, else of the HTML's words. */
  code: string | undefined
}

export type CodeOptions = {
  /** Only a message from this time on counts; to the second, as the `Date` header has it. */
  after?: Date
  /** @default 10_000 */
  timeoutMs?: number
}

/** A running catcher, read over its HTTP API. */
export type Inbox = {
  /** The web UI, e.g. `http://127.0.0.1:1080`; its HTTP API is under `/api`. */
  webUrl: string
  /** Messages newest first; only those to `to` (any case) when given. */
  messages(to?: string): Promise<Message[]>
  /** The code of the newest message to `to` that has one, waiting for it to arrive. */
  latestCode(to: string, options?: CodeOptions): Promise<string>
  /** Deletes every message. */
  clear(): Promise<void>
}

export type Instance = Inbox & {
  /**
   * Where to send: the API's `email.smtp`. Plain SMTP on loopback, no authentication: maildev offers no
   * STARTTLS, so it says `requireTLS: false`, which no real server's configuration should.
   */
  smtp: { host: string; port: number; requireTLS: false }
  /** Closes both servers and deletes what was caught; safe to call more than once. */
  stop(): Promise<void>
}

export const defaultPorts = { smtp: 1025, web: 1080 } as const

/** The catcher `npm start` and the e2e stack run. */
export const defaultWebUrl = `http://127.0.0.1:${defaultPorts.web}`

const pollMs = 200
const requestTimeoutMs = 5_000

/**
 * Starts maildev and resolves once both servers listen.
 * @example
 * const mail = await Mail.start({ smtpPort: 0, webPort: 0 })
 * await sendLoginCode({ smtp: mail.smtp, to: 'visitor@example.com' })
 * const code = await mail.latestCode('visitor@example.com')
 * await mail.stop()
 */
export async function start(options: StartOptions = {}): Promise<Instance> {
  const host = options.host ?? '127.0.0.1'
  // Loaded here, not at the top, so `inbox()` users (the Playwright workers) never load maildev's servers.
  const { MailDev } = await import('maildev')
  // A folder of its own: without one, every maildev on the machine shares `$TMPDIR/maildev`, and one's
  // `clear()` would delete another's files.
  const mailDirectory = await mkdtemp(join(tmpdir(), 'airlock-mail-'))
  const maildev = new MailDev({
    smtp: options.smtpPort ?? defaultPorts.smtp,
    web: options.webPort ?? defaultPorts.web,
    ip: host,
    webIp: host,
    mailDirectory,
    silent: true,
  })
  // If the web port is the taken one, maildev leaves its SMTP server listening (it stops only what started
  // completely); the stack exits on a failed start, which closes it.
  const servers = await maildev.start().catch(async (error: unknown) => {
    await rm(mailDirectory, { recursive: true, force: true })
    throw inUse(error, host) ?? error
  })
  const smtpPort = servers.smtp.getPort()
  const webPort = servers.api?.getPort()
  if (webPort === undefined || webPort === null) throw new Error('maildev started without its web server')
  let stopping: Promise<void> | undefined
  return {
    ...inbox(`http://${urlHost(host)}:${webPort}`),
    // The host to connect to, without the brackets an IPv6 address takes in a URL.
    smtp: { host: urlHost(host).replace(/^\[(.*)\]$/, '$1'), port: smtpPort, requireTLS: false },
    stop: () => {
      stopping ??= maildev.stop().finally(() => rm(mailDirectory, { recursive: true, force: true }))
      return stopping
    },
  }
}

/**
 * Reads a catcher that is already running, e.g. the stack's from a test.
 * @example
 * const code = await Mail.inbox().latestCode('visitor@example.com', { after: sentAt })
 */
export function inbox(webUrl: string = defaultWebUrl): Inbox {
  const api = `${webUrl}/api/email`
  const messages = async (to?: string): Promise<Message[]> => {
    const response = await fetch(api, { signal: AbortSignal.timeout(requestTimeoutMs) })
    if (!response.ok) throw new Error(`the mail catcher at ${webUrl} answered ${response.status}`)
    const all = parseMessages(await response.json())
    const recipient = to?.toLowerCase()
    return recipient === undefined ? all : all.filter((message) => message.to.includes(recipient))
  }
  return {
    webUrl,
    messages,
    latestCode: async (to, { after, timeoutMs = 10_000 } = {}) => {
      // maildev stamps a message with its `Date` header, whole seconds: compare at that resolution.
      const since = after ? Math.floor(after.getTime() / 1000) * 1000 : Number.NEGATIVE_INFINITY
      const deadline = Date.now() + timeoutMs
      let failure: unknown
      for (;;) {
        try {
          const found = (await messages(to)).find(
            (message) => message.code && message.time.getTime() >= since,
          )
          if (found?.code) return found.code
        } catch (error) {
          // The catcher may not answer yet (a stack still starting): that is retried like an empty inbox.
          failure = error
        }
        if (Date.now() >= deadline)
          throw new Error(`no login code mailed to ${to} reached ${webUrl} within ${timeoutMs} ms`, {
            cause: failure,
          })
        await new Promise((resolve) => setTimeout(resolve, pollMs))
      }
    },
    clear: async () => {
      const response = await fetch(`${api}/all`, {
        method: 'DELETE',
        signal: AbortSignal.timeout(requestTimeoutMs),
      })
      if (!response.ok) throw new Error(`the mail catcher at ${webUrl} answered ${response.status}`)
    },
  }
}

/** `GET /api/email`: every message in arrival order; returned newest first. */
function parseMessages(body: unknown): Message[] {
  if (!Array.isArray(body)) throw new Error('the mail catcher answered something other than a message list')
  return body.flatMap((entry) => parseMessage(entry) ?? []).reverse()
}

function parseMessage(value: unknown): Message | undefined {
  if (!isRecord(value) || typeof value.id !== 'string') return undefined
  const subject = string(value.subject)
  const text = string(value.text)
  const envelope = isRecord(value.envelope) ? value.envelope : {}
  return {
    id: value.id,
    time: new Date(string(value.time)),
    from: addresses(value.from),
    to: [...new Set([...addresses(value.to), ...addresses(value.cc), ...addresses(envelope.to)])],
    subject,
    text,
    code: findCode(subject) ?? findCode(text) ?? findCode(words(string(value.html))),
  }
}

function findCode(text: string): string | undefined {
  return /(?<![\d#])\d{6}(?!\d)/.exec(text)?.[0]
}

/** HTML without its styles and tags, so a colour like `#123456` is never read as a code. */
function words(html: string): string {
  return html.replace(/<(style|script)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ')
}

function addresses(value: unknown): string[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((entry) =>
    isRecord(entry) && typeof entry.address === 'string' ? [entry.address.toLowerCase()] : [],
  )
}

function string(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function inUse(error: unknown, host: string): Error | undefined {
  const { code, port } = (error ?? {}) as { code?: unknown; port?: unknown }
  if (code !== 'EADDRINUSE') return undefined
  return new Error(`mail catcher port ${String(port)} on ${host} is already in use`, { cause: error })
}
