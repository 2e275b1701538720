/**
 * The React example (examples/react-wagmi on http://localhost:5175): @airlock/react's <ConnectButton/>
 * connects through the modal, shows the account's address and its balance as the chain has it, and is
 * still connected after a reload.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from '@playwright/test'
import { addresses, clients, displayBalance, expect, test } from './fixtures.ts'

const evm = addresses.evm?.address as `0x${string}`
const example = 'http://localhost:5175/'

/** axe's violations on the dApp's own page (the modal's frame has its own journeys). */
async function pageViolations(page: Page): Promise<string[]> {
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'))
  return page.evaluate(async () => {
    type Axe = { run(context: unknown): Promise<{ violations: { id: string }[] }> }
    const { axe } = window as unknown as { axe: Axe }
    const result = await axe.run({ include: [['main']], exclude: [['iframe']] })
    return result.violations.map((violation) => violation.id)
  })
}

test('<ConnectButton/> connects, shows the address and the balance on chain, and survives a reload', async ({
  page,
  modal,
}) => {
  await page.goto(example)
  const account = page.getByTestId('airlock-account')
  expect(await pageViolations(page)).toEqual([])
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(modal.getByRole('dialog')).toBeVisible()
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(modal.getByTestId('account-address')).toBeVisible()

  await expect(account.getByTestId('airlock-address')).toHaveAttribute('data-address', evm)
  await expect(account.getByTestId('airlock-address')).toHaveText(`${evm.slice(0, 6)}…${evm.slice(-4)}`)
  const balance = await clients.a.getBalance({ address: evm })
  await expect(account.getByTestId('airlock-balance')).toHaveText(displayBalance(balance))
  await expect(account.getByRole('button', { name: 'Network: Airlock Devnet A' })).toBeVisible()

  await page.keyboard.press('Escape')
  await expect(modal.getByRole('dialog')).toBeHidden()
  await page.reload()
  await expect(account.getByTestId('airlock-address')).toHaveAttribute('data-address', evm)
  await expect(account.getByTestId('airlock-balance')).toHaveText(
    displayBalance(await clients.a.getBalance({ address: evm })),
  )
  await expect(page.getByRole('button', { name: 'Connect Wallet' })).toHaveCount(0)
  expect(await pageViolations(page)).toEqual([])

  // The account button opens the modal on Account.
  await account.getByRole('button', { name: new RegExp(`, account ${evm}$`) }).click()
  await expect(modal.getByTestId('account-address')).toBeVisible()
})
