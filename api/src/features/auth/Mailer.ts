/**
 * Sending mail: one small interface, and the SMTP implementation the service uses (nodemailer), configured
 * by the `email.smtp` block.
 */
import { createTransport } from 'nodemailer'
import type * as Config from '../../Config.ts'

/** One plain-text email with its HTML alternative. */
type Mail = { to: string; subject: string; text: string; html: string }

export type Mailer = {
  /** Resolves once the server took the mail; rejects when it could not be reached or refused it. */
  send(mail: Mail): Promise<void>
}

/**
 * Time-outs well inside the API's 10 s request time-out, so a server that never answers is a 502 the
 * visitor can retry, not a 503 whose throttle stays consumed.
 */
const timeouts = { connectionTimeout: 4_000, greetingTimeout: 3_000, socketTimeout: 6_000 }

/**
 * Sends through the configured SMTP server, from `email.from`, over TLS unless `requireTLS: false` says
 * otherwise (`Config.ts`).
 * @example await Mailer.smtp(config.email).send({ to, subject, text, html })
 */
export function smtp(config: Config.Email): Mailer {
  const { host, port, secure = false, requireTLS = true, user, pass } = config.smtp
  const transport = createTransport({
    host,
    port,
    secure,
    // STARTTLS or nothing: nodemailer's default would send in clear to a server that offers none.
    requireTLS: !secure && requireTLS,
    ...(user ? { auth: { user, pass: pass ?? '' } } : {}),
    ...timeouts,
  })
  return {
    async send(mail) {
      await transport.sendMail({ from: config.from, ...mail })
    },
  }
}
