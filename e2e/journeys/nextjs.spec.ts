/**
 * The Next.js example (examples/nextjs, app router, `next start` on http://localhost:5176): the server's
 * HTML already holds the page and the Connect Wallet button; the page hydrates with no error in the
 * console, then connects through the modal.
 */
import { addresses, expect, test } from './fixtures.ts'

const evm = addresses.evm?.address as `0x${string}`
const example = 'http://localhost:5176/'

test('renders on the server, hydrates without a console error, then connects', async ({
  page,
  modal,
  request,
}) => {
  const html = await (await request.get(example)).text()
  expect(html).toContain('<h1>Airlock with Next.js</h1>')
  expect(html).toContain('Connect Wallet')
  expect(html).not.toContain('iframe')

  const errors: string[] = []
  // The page's own messages: the test wallets' script also runs in the modal's frame, and says so there.
  page.on('console', (message) => {
    if (!message.location().url.startsWith(example)) return
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(example)
  // The provider made Airlock after hydrating: its frame is on the page.
  await expect(page.locator('iframe[title="Airlock"]')).toBeAttached()
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(page.getByTestId('status')).toHaveText('connected')
  await expect(page.getByTestId('address')).toHaveText(evm)
  await expect(page.getByTestId('airlock-address')).toHaveAttribute('data-address', evm)
  expect(errors).toEqual([])
})
