/**
 * The email-login routes' texts: the errors clients may match on (the shared ones are `http/errors.ts`'s)
 * and the emails that carry the codes.
 */
import * as Contract from '../../contract/index.ts'
import type { Purpose } from './Codes.ts'

export const messages = {
  notConfigured: 'Email login is not configured',
  invalidEmail: Contract.invalidEmail,
  /** docs/behaviour.md §5: the email cooldown, `seconds` rounded up. */
  tryAgainAfter: (seconds: number) => `Please try again after ${seconds} seconds`,
  notSent: 'The email could not be sent. Try again.',
  invalidCode: Contract.invalidCode,
  expiredCode: 'The code has expired',
  lockedCode: 'Too many wrong codes. Ask for a new one.',
  /** Wrong codes over a cap (`Caps.ts`): of the address (no try and no new code), the client's or everyone's. */
  tooManyFailures: 'Too many wrong codes. Try again later.',
  /** Codes sent over a cap (`Caps.ts`): to this client, or to everyone. */
  tooManyCodes: 'Too many codes were sent. Try again later.',
  invalidSession: 'Invalid session',
  emailInUse: 'This email is already in use',
  sameEmail: 'This is already your email',
  /** A user known only by an identity (a Farcaster login) has no address whose code could start a change. */
  noEmail: 'This account has no email',
} as const

/** What each purpose's email asks of its reader, and what to do when they did not ask for it. */
const mails: Record<Purpose, { subject: string; lead: string; otherwise: string }> = {
  login: {
    subject: 'Your login code',
    lead: 'Your login code is',
    otherwise: 'If you did not try to log in, ignore this email: nobody can log in without the code.',
  },
  'change-primary': {
    subject: 'Confirm your email change',
    lead: 'To change the email of your account, enter this code:',
    otherwise: 'If you did not ask to change your email, ignore this email: it stays as it is.',
  },
  'change-secondary': {
    subject: 'Confirm your new email',
    lead: 'To make this your account’s email, enter this code:',
    otherwise: 'If you did not ask for this, ignore this email: nothing changes.',
  },
}

/**
 * The email that carries a code: a subject, plain text, and the same as simple HTML (the code holds only
 * digits, so nothing in it needs escaping).
 * @example codeMail('login', '042917', 10).text // 'Your login code is 042917. It is valid for 10 minutes. …'
 */
export function codeMail(purpose: Purpose, code: string, minutes: number) {
  const { subject, lead, otherwise } = mails[purpose]
  const validity = `It is valid for ${minutes} minutes.`
  return {
    subject,
    text: `${lead} ${code}. ${validity}\n\n${otherwise}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif">
<p>${lead}</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:4px">${code}</p>
<p>${validity}</p>
<p style="color:#666">${otherwise}</p>
</body></html>`,
  }
}
