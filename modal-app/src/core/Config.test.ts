import { describe, expect, it, vi } from 'vitest'
import { parse } from './Config.ts'

const search = (config: unknown, projectId = 'demo') =>
  `?projectId=${projectId}&config=${encodeURIComponent(typeof config === 'string' ? config : JSON.stringify(config))}`

describe('Config.parse', () => {
  it('reads the project id and a full config', () => {
    const config = {
      networks: ['eip155:31337', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'],
      rpcUrls: { 'eip155:31337': 'http://127.0.0.1:8545' },
      themeMode: 'dark',
      themeVariables: { '--airlock-accent': '#f60' },
      features: { swaps: false },
      embedded: true,
    }
    expect(parse(search(config))).toEqual({ ok: true, projectId: 'demo', config })
  })

  it('refuses a missing config parameter', () => {
    const parsed = parse('?projectId=demo')
    expect(parsed).toMatchObject({ ok: false, projectId: 'demo', config: { networks: [] } })
  })

  it('refuses config that is not JSON', () => {
    expect(parse(search('{networks:'))).toMatchObject({
      ok: false,
      message: 'The config parameter is not valid JSON.',
    })
  })

  it('refuses a network id that is not CAIP-2, with SPEC’s text', () => {
    const parsed = parse(search({ networks: ['eip155:1', 'ethereum'] }))
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.message).toContain('Invalid CAIP-2 network id')
  })

  it('refuses config without networks', () => {
    expect(parse(search({ themeMode: 'dark' })).ok).toBe(false)
  })

  it('refuses an unknown theme mode', () => {
    expect(parse(search({ networks: [], themeMode: 'blue' })).ok).toBe(false)
  })

  it('refuses RPC URLs that are not http(s) or keyed by a non-CAIP-2 id', () => {
    expect(parse(search({ networks: [], rpcUrls: { 'eip155:1': 'javascript:alert(1)' } })).ok).toBe(false)
    expect(parse(search({ networks: [], rpcUrls: { mainnet: 'https://rpc.example' } })).ok).toBe(false)
  })

  it('refuses a non-boolean embedded flag', () => {
    expect(parse(search({ networks: [], embedded: 'yes' })).ok).toBe(false)
  })

  it('ignores unknown keys with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(parse(search({ networks: [], extra: 1 }))).toEqual({
      ok: true,
      projectId: 'demo',
      config: { networks: [] },
    })
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('extra'))
    warn.mockRestore()
  })

  it('reads an empty project id when there is none', () => {
    expect(parse(`?config=${encodeURIComponent('{"networks":[]}')}`).projectId).toBe('')
  })
})
