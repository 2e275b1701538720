/**
 * Email one-time codes on the dev stack, before any view uses them: the API mails the code through real
 * SMTP to the stack's mail catcher, and the modal origin, calling the API as the modal will (CORS, a bearer
 * token, no cookie), trades it for a session once. The login views come with the embedded wallet.
 */
import type { Frame } from '@playwright/test'
import { mailCode } from './emailFixtures.ts'
import { expect, modalFrame, test } from './fixtures.ts'

type Answer = { status: number; body: Record<string, unknown> }

/** A call to the API from the modal's own origin, as its client makes them. */
function call(frame: Frame, path: string, body?: unknown, token?: string): Promise<Answer> {
  return frame.evaluate(
    async ({ path, body, token }) => {
      const response = await fetch(`http://127.0.0.1:8787${path}?projectId=demo`, {
        method: body === undefined ? 'GET' : 'POST',
        credentials: 'omit',
        headers: {
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    },
    { path, body, token },
  )
}

test('the code reaches the mail catcher over SMTP and opens one session from the modal origin', async ({
  page,
}) => {
  await page.goto('/')
  const frame = await modalFrame(page)
  const email = `visitor-${Date.now()}@example.test`

  expect(await call(frame, '/v1/auth/email', { email })).toEqual({
    status: 200,
    body: { sent: true, retryAfter: 30 },
  })
  // The product's throttle (docs/behaviour.md §5): the seconds left of 30, rounded up. How many are left depends on how long the first
  // answer took to reach here, which a busy machine decides; the exact count at each instant is the API's
  // test, on a clock it moves (api/src/features/auth/routes.test.ts).
  const throttled = await call(frame, '/v1/auth/email', { email })
  expect(throttled.status).toBe(429)
  const seconds = Number(/^Please try again after (\d+) seconds$/.exec(String(throttled.body.message))?.[1])
  expect(seconds).toBeGreaterThan(0)
  expect(seconds).toBeLessThanOrEqual(30)
  const code = await mailCode(email)
  expect(code).toMatch(/^\d{6}$/)

  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0')
  expect((await call(frame, '/v1/auth/email/verify', { email, code: wrong })).status).toBe(401)
  const login = await call(frame, '/v1/auth/email/verify', { email, code })
  expect(login.status).toBe(200)
  const token = login.body.token as string
  expect(await call(frame, '/v1/auth/me', undefined, token)).toEqual({
    status: 200,
    body: { user: expect.objectContaining({ email }) },
  })
  // Single use: the same code again opens nothing.
  expect((await call(frame, '/v1/auth/email/verify', { email, code })).status).toBe(401)
  expect((await call(frame, '/v1/auth/me', undefined, `${token.slice(0, -2)}xx`)).status).toBe(401)
})
