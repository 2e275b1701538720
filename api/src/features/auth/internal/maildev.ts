/**
 * Test support: a real SMTP catcher (MailDev) on loopback, on ports the OS picks, and its inbox read over
 * MailDev's REST API. Each catcher keeps its mail in a folder of its own, removed when it stops.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MailDev } from 'maildev'

/** A caught email, as MailDev's REST API reports it (the fields the tests read). */
export type Caught = {
  subject: string
  text?: string
  html?: string
  from: { address: string; name: string }[]
  to: { address: string; name: string }[]
}

export type Catcher = {
  /** The SMTP port to configure the API with. */
  port: number
  /** Every email caught for `to`, oldest first. */
  inbox(to: string): Promise<Caught[]>
  /** Waits (up to 5 s) until `to` has `count` emails, and returns the last. */
  nth(to: string, count: number): Promise<Caught>
  stop(): Promise<void>
}

/** Starts a catcher; with `auth`, it refuses mail from clients that do not log in with it. */
export async function start(auth?: { user: string; pass: string }): Promise<Catcher> {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-maildev-'))
  const maildev = new MailDev({
    smtp: 0,
    ip: '127.0.0.1',
    web: 0,
    webIp: '127.0.0.1',
    silent: true,
    mailDirectory: dir,
    ...(auth ? { incomingUser: auth.user, incomingPass: auth.pass } : {}),
  })
  const { smtp, api } = await maildev.start()
  const web = `http://127.0.0.1:${api?.getPort()}`
  const inbox = async (to: string) => {
    const response = await fetch(`${web}/api/email?to.address=${encodeURIComponent(to)}`)
    if (!response.ok) throw new Error(`MailDev answered ${response.status}`)
    return (await response.json()) as Caught[]
  }
  return {
    port: smtp.getPort(),
    inbox,
    async nth(to, count) {
      const until = Date.now() + 5_000
      for (;;) {
        const caught = await inbox(to)
        if (caught.length >= count) return caught[count - 1] as Caught
        if (Date.now() > until) throw new Error(`${to} has ${caught.length} emails, not ${count}`)
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    },
    async stop() {
      await maildev.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** The 6-digit code an email carries (its text names it once). */
export function codeOf(email: Caught): string {
  const code = /\b(\d{6})\b/.exec(email.text ?? '')?.[1]
  if (!code) throw new Error(`no code in "${email.text}"`)
  return code
}
