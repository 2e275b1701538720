/**
 * Test support for the API's route tests: a configuration, and `get`/`json` calls against a service's app.
 */
import type * as Config from '../Config.ts'
import type * as Service from '../Service.ts'

export const modalOrigin = 'http://127.0.0.1:5174'
export const shop = 'https://shop.example'
export const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }

/** A configuration with these chains, the API on 8787 and the modal origin on 5174. */
export function configOf(chains: Config.Chain[] = []): Config.Config {
  return { apiUrl: 'http://127.0.0.1:8787', modalOrigin, chains }
}

export type Answer = { status: number; body: Record<string, unknown> & { message?: string } }

/** Calls on `app()` (read when called, so a suite can create its app in `beforeAll`). */
export function calls(app: () => Service.App) {
  const get = (path: string, init?: RequestInit) => app().request(path, init)
  const json = async (path: string, init?: RequestInit): Promise<Answer> => {
    const response = await get(path, init)
    return { status: response.status, body: (await response.json()) as Answer['body'] }
  }
  return { get, json }
}
