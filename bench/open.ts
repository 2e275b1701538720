/**
 * First open, as issue 14 defines it, timed (`openLatency`) and traced (`traceOpen`): from one click on the
 * dApp's Open button to the modal card painted, across the host page's renderer and the modal frame's.
 */
import type { Browser, Frame, Page } from '@playwright/test'
import { walletOptions } from '../e2e/journeys/fixtures.ts'
import { walletInitScript } from '../e2e/wallets/index.ts'
import { percentile, round } from './stats.ts'

/**
 * First open, as issue 14 defines it: each sample a fresh page, loaded until the modal is idle (its wallet
 * list attached), then one click → the modal visible and opaque (the card laid out at full opacity, every
 * ancestor too, with its wallet list), timed across the two frames on one clock; p50 and p99 of `pages`.
 * The later opens of each page (`reopens` of them) are the re-open figure: a modal already shown once.
 */
export async function openLatency(browser: Browser, dappUrl: string, pages: number, reopens: number) {
  const first: number[] = []
  const again: number[] = []
  for (let i = 0; i < pages; i++) {
    const { page, frame } = await idle(browser, dappUrl)
    try {
      first.push(await openOnce(page, frame))
      for (let j = 0; j < (i === 0 ? reopens : 0); j++) again.push(await openOnce(page, frame))
    } finally {
      await page.close()
    }
  }
  return {
    openLatencyP50Ms: round(percentile(first, 50)),
    openLatencyP99Ms: round(percentile(first, 99)),
    reopenLatencyP50Ms: round(percentile(again, 50)),
  }
}

/** A fresh page of the dApp, loaded until the modal is idle: its wallet list attached, unseen. */
async function idle(browser: Browser, dappUrl: string): Promise<{ page: Page; frame: Frame }> {
  const page = await browser.newPage()
  await page.addInitScript({ content: await walletInitScript(walletOptions) })
  await page.goto(dappUrl)
  await page.waitForFunction(
    () =>
      (window as { airlock?: { getState(): { status: string } } }).airlock?.getState().status ===
      'disconnected',
  )
  const frame = await modalFrame(page)
  await frame.waitForSelector('[data-testid="wallet-list"] button', { state: 'attached' })
  return { page, frame }
}

/** Whether `element` and every ancestor in its document is visible and fully opaque (in page scripts). */
const opaque = `function opaque(element) {
  for (let at = element; at; at = at.parentElement) {
    const style = getComputedStyle(at)
    if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) < 1) return false
  }
  return true
}`

/** User timing marks each open leaves, in the page and the frame: where a trace's window starts and ends. */
const marks = {
  click: 'airlock-bench:click',
  hostShown: 'airlock-bench:host-shown',
  shown: 'airlock-bench:shown',
}

/**
 * One click on the page's Open button → the modal card painted, in ms; then closes it again. Painted means
 * seen on both sides: the host's frame shown (visible, opaque, with a size) and, in the frame, the card and
 * its wallet list laid out at full opacity, whichever comes later, each at the animation frame that paints it.
 */
async function openOnce(page: Page, frame: Frame) {
  // Strings, not functions: tsx would wrap a named inner function in a helper the page does not have.
  const hostShown = page.evaluate<number>(`new Promise((resolve) => {
    ${opaque}
    function check() {
      const iframe = document.querySelector('dialog[data-airlock] iframe')
      const box = iframe && iframe.getBoundingClientRect()
      if (box && box.width > 0 && box.height > 0 && opaque(iframe)) {
        performance.mark('${marks.hostShown}')
        resolve(performance.timeOrigin + performance.now())
      } else requestAnimationFrame(check)
    }
    requestAnimationFrame(check)
    setTimeout(() => resolve(Number.NaN), 10000)
  })`)
  const shown = frame.evaluate<number>(`new Promise((resolve) => {
    ${opaque}
    function check() {
      const card = document.querySelector('.card')
      const button = document.querySelector('[data-testid="wallet-list"] button')
      const box = card && button && card.getBoundingClientRect()
      const row = button && button.getBoundingClientRect()
      // A hidden frame lays nothing out: the first frame where the card and its list have a size, fully
      // opaque, is the first it paints them.
      if (box && row && box.width > 0 && box.height > 0 && row.height > 0 && opaque(card)) {
        performance.mark('${marks.shown}')
        resolve(performance.timeOrigin + performance.now())
      } else requestAnimationFrame(check)
    }
    requestAnimationFrame(check)
    setTimeout(() => resolve(Number.NaN), 10000)
  })`)
  await page.waitForTimeout(50)
  const clicked = await page.evaluate((mark) => {
    performance.mark(mark)
    const at = performance.timeOrigin + performance.now()
    ;(document.getElementById('open') as HTMLButtonElement).click()
    return at
  }, marks.click)
  const at = Math.max(await shown, await hostShown)
  if (Number.isNaN(at)) throw new Error('the modal card did not appear within 10 s')
  await page.evaluate(() => (window as { airlock?: { close(): Promise<void> } }).airlock?.close())
  await page.waitForFunction(
    () => !(document.querySelector('dialog[data-airlock]') as HTMLDialogElement | null)?.open,
  )
  return at - clicked
}

async function modalFrame(page: Page) {
  for (let i = 0; i < 100; i++) {
    const frame = page.frames().find((f) => f.url().startsWith('http://airlock.localhost:5174'))
    if (frame) return frame
    await page.waitForTimeout(50)
  }
  throw new Error('modal frame not found')
}

type TraceEvent = {
  name: string
  cat: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  args?: { name?: string; data?: Record<string, unknown> }
}

/** Categories of Chromium's tracing that say what a renderer's main thread does, and when frames go out. */
const categories = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'blink.user_timing',
  'toplevel',
  'v8.execute',
]

/** What one traced open was: its length, and each main thread's work in it by kind, in ms. */
export type OpenTrace = {
  ms: number
  /** Per renderer (`host`, `modal`): ms of work by event name (self time), and how much of the open it kept busy. */
  threads: Record<string, { busyMs: number; work: Record<string, number> }>
  /** The main threads' tasks in the open, in order: when (ms after the click), how long, and where. */
  tasks: { at: number; ms: number; thread: string; what: string }[]
}

/**
 * First opens traced with Chromium's tracing (over CDP): `runs` fresh pages as `openLatency` loads them,
 * each open's trace cut from the click's user timing mark to the later of the two painted ones, and the work
 * of the host page's and the modal frame's main threads in between, by kind.
 */
export async function traceOpen(browser: Browser, dappUrl: string, runs = 5): Promise<OpenTrace[]> {
  const traces: OpenTrace[] = []
  for (let i = 0; i < runs; i++) {
    const { page, frame } = await idle(browser, dappUrl)
    try {
      await browser.startTracing(undefined, { categories })
      await openOnce(page, frame)
      const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] })
        .traceEvents
      traces.push(analyse(events))
    } finally {
      await page.close()
    }
  }
  return traces
}

function analyse(events: TraceEvent[]): OpenTrace {
  const mark = (name: string) => {
    const found = events.filter((event) => event.name === name && event.cat.includes('blink.user_timing'))
    const last = found.at(-1)
    if (!last) throw new Error(`the trace has no ${name} mark`)
    return last
  }
  const click = mark(marks.click)
  const ends = [mark(marks.hostShown), mark(marks.shown)]
  const end = Math.max(...ends.map((event) => event.ts))
  const threads = new Map<string, string>([
    [`${click.pid}:${click.tid}`, 'host'],
    [`${ends[1]?.pid}:${ends[1]?.tid}`, 'modal'],
  ])
  const inWindow = events.filter(
    (event) =>
      event.ph === 'X' &&
      threads.has(`${event.pid}:${event.tid}`) &&
      event.ts < end &&
      event.ts + (event.dur ?? 0) > click.ts,
  )
  const result: OpenTrace = { ms: (end - click.ts) / 1000, threads: {}, tasks: [] }
  for (const [key, thread] of threads) {
    const own = inWindow.filter((event) => `${event.pid}:${event.tid}` === key).sort((a, b) => a.ts - b.ts)
    const work: Record<string, number> = {}
    // Self time: each event's length in the window less its children's, so nested work counts once.
    const stack: { event: TraceEvent; end: number; children: number }[] = []
    const close = (until: number) => {
      while (stack.length > 0 && (stack.at(-1)?.end ?? 0) <= until) {
        const done = stack.pop()
        if (!done) break
        const length = clip(done.event, click.ts, end)
        work[label(done.event)] = (work[label(done.event)] ?? 0) + (length - done.children) / 1000
        const parent = stack.at(-1)
        if (parent) parent.children += length
      }
    }
    let busy = 0
    for (const event of own) {
      close(event.ts)
      const eventEnd = event.ts + (event.dur ?? 0)
      if (stack.length === 0) {
        busy += clip(event, click.ts, end)
        result.tasks.push({
          at: round((event.ts - click.ts) / 1000),
          ms: round((event.dur ?? 0) / 1000),
          thread,
          what: own
            .filter((inner) => inner.ts >= event.ts && inner.ts < eventEnd && inner !== event)
            .map(label)
            .slice(0, 4)
            .join(' › '),
        })
      }
      stack.push({ event, end: eventEnd, children: 0 })
    }
    close(Number.POSITIVE_INFINITY)
    const rounded = Object.fromEntries(
      Object.entries(work)
        .filter(([, ms]) => ms >= 0.05)
        .sort(([, a], [, b]) => b - a)
        .map(([name, ms]) => [name, round(ms)]),
    )
    result.threads[thread] = { busyMs: round(busy / 1000), work: rounded }
  }
  result.tasks.sort((a, b) => a.at - b.at)
  result.ms = round(result.ms)
  return result
}

/** How much of `event` lies between `from` and `to`, µs. */
const clip = (event: TraceEvent, from: number, to: number) =>
  Math.max(0, Math.min(to, event.ts + (event.dur ?? 0)) - Math.max(from, event.ts))

/** An event's name, with what it ran where that says more (an event's type, a script's URL). */
function label(event: TraceEvent): string {
  const data = event.args?.data
  if (event.name === 'EventDispatch' && typeof data?.type === 'string') return `EventDispatch(${data.type})`
  if (event.name === 'FunctionCall' && typeof data?.url === 'string')
    return `FunctionCall(${data.url.replace(/^.*\//, '')}${typeof data.functionName === 'string' && data.functionName ? ` ${data.functionName}` : ''})`
  return event.name
}
