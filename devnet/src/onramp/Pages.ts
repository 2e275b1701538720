/**
 * The sandbox checkout's pages: plain server-rendered HTML with labelled fields, one small script (it keeps
 * a form from being sent twice) and a style, both allowed by a per-response nonce. Every page carries
 * {@link headers}: a CSP that allows nothing else and `frame-ancestors 'none'`, because a checkout inside
 * someone else's frame could be overlaid and clicked through; the modal opens it in a popup.
 */
import { randomBytes } from 'node:crypto'
import { checkoutTexts, testCards } from './Protocol.ts'

export type Page = { status: number; html: string; nonce: string }

/** The headers of a page rendered with `nonce`. */
export function headers(nonce: string): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  }
}

function esc(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  )
}

const style = `body{font:16px/1.5 system-ui,sans-serif;max-inline-size:26rem;margin:2rem auto;padding:0 1rem;color:#111}
label{display:block;margin-block-start:.75rem}input{display:block;inline-size:100%;box-sizing:border-box;padding:.5rem;font:inherit}
button{margin-block-start:1rem;margin-inline-end:.5rem;padding:.6rem 1rem;font:inherit}
[role=alert]{color:#a00;font-weight:600}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dd{margin:0;overflow-wrap:anywhere}`

// Once a form is sent its buttons are disabled, so a double click pays once.
const script = `for(const f of document.forms)f.addEventListener('submit',()=>{setTimeout(()=>{for(const b of f.querySelectorAll('button'))b.disabled=true})})`

function page(status: number, title: string, body: string): Page {
  const nonce = randomBytes(16).toString('base64')
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · Airlock sandbox on-ramp</title><style nonce="${nonce}">${style}</style></head>
<body><main><h1>${esc(title)}</h1>${body}</main><script nonce="${nonce}">${script}</script></body></html>`
  return { status, html, nonce }
}

export type Summary = {
  total: string
  fiat: string
  crypto: string
  symbol: string
  networkName: string
  walletAddress: string
}

function summaryOf(summary: Summary): string {
  return `<dl><dt>You pay</dt><dd>${esc(summary.total)} ${esc(summary.fiat.toUpperCase())}</dd>
<dt>You get</dt><dd>${esc(summary.crypto)} ${esc(summary.symbol)} on ${esc(summary.networkName)}</dd>
<dt>To</dt><dd>${esc(summary.walletAddress)}</dd></dl>`
}

/** The card form; `query` is the signed widget query, posted back and verified again. */
export function checkout(query: string, summary: Summary, error?: string): Page {
  const field = (name: string, label: string, attributes: string) =>
    `<label for="${name}">${label}</label><input id="${name}" name="${name}" required ${attributes}>`
  return page(
    error ? 400 : 200,
    'Buy crypto',
    `${summaryOf(summary)}${error ? `<p role="alert">${esc(error)}</p>` : ''}
<form method="post" action="/buy/pay"><input type="hidden" name="query" value="${esc(query)}">
${field('cardNumber', 'Card number', 'inputmode="numeric" autocomplete="cc-number"')}
${field('expiry', 'Expiry (MM/YY)', 'autocomplete="cc-exp" placeholder="MM/YY"')}
${field('cvc', 'CVC', 'inputmode="numeric" autocomplete="cc-csc"')}
${field('name', 'Name on card', 'autocomplete="cc-name"')}
<button type="submit">Pay ${esc(summary.total)} ${esc(summary.fiat.toUpperCase())}</button></form>
<p>Test cards: ${testCards.succeeds} succeeds, ${testCards.authenticates} asks for authentication, ${testCards.declined} is declined.</p>`,
  )
}

/** What is wrong with a card form, said as the form says it; `undefined` for a test card that may pay. */
export function cardProblem(form: URLSearchParams): string | undefined {
  const card = (form.get('cardNumber') ?? '').replace(/[\s-]/g, '')
  const expiry = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/.exec(form.get('expiry') ?? '')
  const now = new Date()
  const expired =
    !expiry ||
    2000 + Number(expiry[2]) < now.getUTCFullYear() ||
    (2000 + Number(expiry[2]) === now.getUTCFullYear() && Number(expiry[1]) < now.getUTCMonth() + 1)
  if (!/^\d{12,19}$/.test(card)) return 'Enter the card number.'
  if (expired) return 'Enter an expiry date in the future, as MM/YY.'
  if (!/^\d{3,4}$/.test(form.get('cvc') ?? '')) return 'Enter the 3 or 4 digit CVC.'
  if (!(form.get('name') ?? '').trim()) return 'Enter the name on the card.'
  if (!(Object.values(testCards) as string[]).includes(card)) return checkoutTexts.unknownCard
  return undefined
}

/** The 3-D-Secure-like step: the visitor's bank asks to confirm. */
export function authenticate(transactionId: string, token: string): Page {
  const hidden = `<input type="hidden" name="transactionId" value="${esc(transactionId)}"><input type="hidden" name="token" value="${esc(token)}">`
  return page(
    200,
    checkoutTexts.authenticate,
    `<p>Your bank asks you to confirm this payment.</p><form method="post" action="/buy/authenticate">${hidden}
<button type="submit" name="outcome" value="complete">Complete authentication</button>
<button type="submit" name="outcome" value="fail">Fail authentication</button></form>`,
  )
}

export function success(summary: Summary, txHash: string): Page {
  return page(
    200,
    checkoutTexts.success,
    `<p role="status">${esc(summary.crypto)} ${esc(summary.symbol)} was sent to your wallet.</p>${summaryOf(summary)}
<p>Transaction: <code>${esc(txHash)}</code></p><p>You can close this window.</p>`,
  )
}

export function failure(reason: string): Page {
  return page(
    402,
    checkoutTexts.failure,
    `<p role="alert">${esc(reason)}</p><p>No money was taken. Close this window and try again.</p>`,
  )
}

export function error(status: number, message: string): Page {
  return page(status, 'Checkout unavailable', `<p role="alert">${esc(message)}</p>`)
}
