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

  it('refuses a network id that is not CAIP-2, with the product’s text (docs/behaviour.md §5)', () => {
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

  it('reads the Telegram signal the host SDK passed, and a signal of another shape as none, never an alert', () => {
    expect(parse(search({ networks: [], telegram: { platform: 'ios', version: '8.0' } }))).toEqual({
      ok: true,
      projectId: 'demo',
      config: { networks: [], telegram: { platform: 'ios', version: '8.0' } },
    })
    expect(parse(search({ networks: [], telegram: { platform: 'Symbol(ios)' } }))).toEqual({
      ok: true,
      projectId: 'demo',
      config: { networks: [] },
    })
  })

  it('reads an empty project id when there is none', () => {
    expect(parse(`?config=${encodeURIComponent('{"networks":[]}')}`).projectId).toBe('')
  })

  describe('customNetworks', () => {
    const custom = {
      id: 'eip155:31338',
      name: 'Team Devnet',
      rpcUrl: 'http://127.0.0.1:8546',
      explorer: { name: 'Team Scan', url: 'https://scan.team.example' },
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      iconUrl: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg"/%3E',
      testnet: true,
    }
    const solana = {
      id: 'solana:8E9rvCKLFQia2Y35HXjjpWzj8weVo44K',
      name: 'Sonic',
      rpcUrl: 'https://rpc.sonic.example',
      nativeCurrency: { name: 'Sonic', symbol: 'S', decimals: 9 },
    }
    const message = (entry: unknown) => {
      const parsed = parse(search({ networks: ['eip155:31338'], customNetworks: [entry] }))
      return parsed.ok ? 'ok' : parsed.message
    }

    it('reads declared networks of any namespace, whole', () => {
      const config = { networks: ['eip155:31338', solana.id], customNetworks: [custom, solana] }
      expect(parse(search(config))).toEqual({ ok: true, projectId: 'demo', config })
    })

    it('drops a key it does not know inside an entry, keeping the entry', () => {
      const parsed = parse(
        search({ networks: ['eip155:31338'], customNetworks: [{ ...custom, wsUrl: 'ws://x' }] }),
      )
      expect(parsed).toMatchObject({ ok: true, config: { customNetworks: [custom] } })
    })

    it('refuses each bad field, naming it and what was expected', () => {
      expect(message({ ...custom, id: 'ethereum' })).toBe(
        'Invalid config: customNetworks[0].id: Invalid CAIP-2 network id',
      )
      expect(message({ ...custom, id: 'eip155:0x7a6a' })).toBe(
        'Invalid config: customNetworks[0].id: expected eip155:<decimal chain id>',
      )
      expect(message({ ...custom, name: '' })).toBe(
        'Invalid config: customNetworks[0].name: expected a name of 1 to 100 characters',
      )
      expect(message({ ...custom, name: 'x'.repeat(101) })).toContain('customNetworks[0].name')
      expect(message({ ...custom, rpcUrl: 'javascript:alert(1)' })).toBe(
        'Invalid config: customNetworks[0].rpcUrl: expected an http(s) URL',
      )
      expect(message({ ...custom, rpcUrl: 'wss://rpc.example' })).toContain('rpcUrl: expected an http(s) URL')
      expect(message({ ...custom, explorer: { name: 'Scan', url: 'ftp://scan.example' } })).toBe(
        'Invalid config: customNetworks[0].explorer.url: expected an http(s) URL',
      )
      expect(message({ ...custom, nativeCurrency: { ...custom.nativeCurrency, decimals: 37 } })).toBe(
        'Invalid config: customNetworks[0].nativeCurrency.decimals: expected a whole number in 0..36',
      )
      expect(message({ ...custom, nativeCurrency: { ...custom.nativeCurrency, decimals: 1.5 } })).toContain(
        'decimals: expected a whole number in 0..36',
      )
      expect(message({ ...custom, nativeCurrency: { name: 'Ether', decimals: 18 } })).toBe(
        'Invalid config: customNetworks[0].nativeCurrency.symbol: expected a symbol of 1 to 20 characters',
      )
      expect(message({ ...custom, iconUrl: 'javascript:alert(1)' })).toBe(
        'Invalid config: customNetworks[0].iconUrl: expected an http(s) or data:image/… URL',
      )
      expect(message({ ...custom, iconUrl: 'data:text/html,<script>alert(1)</script>' })).toContain('iconUrl')
      expect(message({ ...custom, iconUrl: `data:image/png;base64,${'A'.repeat(8200)}` })).toContain(
        'iconUrl',
      )
      expect(message({ ...custom, testnet: 'yes' })).toBe(
        'Invalid config: customNetworks[0].testnet: expected a boolean',
      )
    })

    it('accepts icons over https and as image data', () => {
      expect(message({ ...custom, iconUrl: 'https://icons.example/devnet.png' })).toBe('ok')
      expect(message({ ...custom, iconUrl: 'data:image/png;base64,iVBORw0KGgo=' })).toBe('ok')
    })

    it('refuses a network declared twice, and more than 64', () => {
      const parsed = parse(search({ networks: [], customNetworks: [custom, { ...custom, name: 'Again' }] }))
      expect(parsed).toMatchObject({
        ok: false,
        message: 'Invalid config: customNetworks: eip155:31338 is declared twice',
      })
      const many = Array.from({ length: 65 }, (_, i) => ({ ...custom, id: `eip155:${i + 1}` }))
      expect(parse(search({ networks: [], customNetworks: many })).ok).toBe(false)
    })

    it('warns about a declared network that networks does not list, which is not shown', () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
      expect(parse(search({ networks: ['eip155:1'], customNetworks: [custom] })).ok).toBe(true)
      expect(warn).toHaveBeenCalledWith(
        '[airlock] Custom network eip155:31338 is not listed in `networks`, so it is not shown.',
      )
      warn.mockClear()
      parse(search({ networks: ['eip155:31338'], customNetworks: [custom] }))
      expect(warn).not.toHaveBeenCalled()
      warn.mockRestore()
    })
  })

  describe('preferredAccountTypes', () => {
    const message = (preferredAccountTypes: unknown) => {
      const parsed = parse(search({ networks: ['eip155:1'], preferredAccountTypes }))
      return parsed.ok ? parsed.config.preferredAccountTypes : parsed.message
    }

    it('takes the product’s account types (docs/behaviour.md §1) per namespace, and EIP-7702 for eip155', () => {
      const types = { eip155: 'eoa', solana: 'eoa', polkadot: 'eoa', bip122: 'payment' }
      expect(message(types)).toEqual(types)
      expect(message({ eip155: 'eip7702' })).toEqual({ eip155: 'eip7702' })
      expect(message({ eip155: 'smartAccount' })).toEqual({ eip155: 'smartAccount' })
    })

    it('refuses an unknown namespace and a type its namespace has not, naming the field', () => {
      expect(message({ cosmos: 'eoa' })).toBe(
        'Invalid config: preferredAccountTypes.cosmos: expected one of eip155, solana, polkadot, bip122',
      )
      expect(message({ eip155: 'payment' })).toBe(
        'Invalid config: preferredAccountTypes.eip155: expected one of smartAccount, eip7702, eoa',
      )
      expect(message({ solana: 'smartAccount' })).toBe(
        'Invalid config: preferredAccountTypes.solana: expected one of eoa',
      )
      expect(message('smartAccount')).toBe('Invalid config: preferredAccountTypes: expected an object')
    })
  })

  describe('the options that switch and hide', () => {
    const read = (options: Record<string, unknown>) => {
      const parsed = parse(search({ networks: ['eip155:1'], ...options }))
      return parsed.ok ? parsed.config : parsed.message
    }
    const acme = {
      id: 'acme',
      name: 'Acme Wallet',
      iconUrl: 'https://acme.example/icon.png',
      mobileLink: 'acme://',
    }
    const walletConnect = { projectId: 'wc' }

    it('refuses a switch the modal does not honour, naming it and the one meant', () => {
      expect(read({ features: { histroy: false } })).toBe(
        'Invalid config: features.histroy: unknown switch; did you mean history?',
      )
      expect(read({ features: { history: 0 } })).toBe(
        'Invalid config: features.history: expected true or false',
      )
      expect(read({ features: { history: false, collapseWallets: true } })).toMatchObject({
        features: { history: false, collapseWallets: true },
      })
    })

    it('takes the network options as booleans only', () => {
      expect(read({ allowUnsupportedChain: true, enableNetworkSwitch: false })).toMatchObject({
        allowUnsupportedChain: true,
        enableNetworkSwitch: false,
      })
      expect(read({ enableNetworkSwitch: 'no' })).toBe(
        'Invalid config: enableNetworkSwitch: expected a boolean',
      )
    })

    it('hides wallets by registry id, rdns or name', () => {
      const excludeWalletIds = [
        'c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96',
        'io.metamask',
        'Rabby Wallet',
      ]
      expect(read({ excludeWalletIds })).toMatchObject({ excludeWalletIds })
      expect(read({ excludeWalletIds: ['line\nbreak'] })).toMatch(
        /^Invalid config: excludeWalletIds\[0\]: expected a wallet id/,
      )
    })

    it('takes custom wallets with safe links only, each id once, and only with WalletConnect', () => {
      expect(read({ customWallets: [acme], walletConnect })).toMatchObject({ customWallets: [acme] })
      expect(read({ customWallets: [{ ...acme, mobileLink: 'javascript:alert(1)' }], walletConnect })).toBe(
        'Invalid config: customWallets[0].mobileLink: expected a wallet:// or https:// link',
      )
      expect(read({ customWallets: [{ ...acme, webappLink: 'http://acme.example' }], walletConnect })).toBe(
        'Invalid config: customWallets[0].webappLink: expected an https:// link',
      )
      expect(read({ customWallets: [acme, acme], walletConnect })).toBe(
        'Invalid config: customWallets: acme is listed twice',
      )
      expect(read({ customWallets: [acme] })).toBe(
        'Invalid config: customWallets: needs walletConnectProjectId, as they pair over WalletConnect',
      )
    })

    it('suggests the option meant when it ignores an unknown one', () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
      read({ excludeWalletIDs: ['io.metamask'] })
      expect(warn).toHaveBeenCalledWith(
        '[airlock] Unknown config keys are ignored: excludeWalletIDs (did you mean excludeWalletIds?)',
      )
      warn.mockRestore()
    })
  })
})
