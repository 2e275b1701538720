import { describe, expect, it } from 'vitest'
import * as Config from '../../Config.ts'

const base = { apiUrl: 'http://127.0.0.1:8787', modalOrigin: 'http://127.0.0.1:5174', chains: [] }
const provider = {
  id: 'moonpay',
  name: 'MoonPay',
  kind: 'moonpay',
  apiUrl: 'https://api.moonpay.example',
  widgetUrl: 'https://buy.moonpay.example',
  publishableKey: 'pk_live_x',
  secretKey: 'sk_live_0123456789abcdef',
  webhookSecret: 'whsec_0123456789abcdef',
}
const parse = (providers: unknown[]) => Config.parse({ ...base, onramp: { providers } })

describe('onramp configuration', () => {
  it('takes providers on https, and on http only on loopback', () => {
    expect(parse([provider]).onramp?.providers[0]?.id).toBe('moonpay')
    expect(parse([{ ...provider, apiUrl: 'http://127.0.0.1:8797' }]).onramp?.providers).toHaveLength(1)
    expect(() => parse([{ ...provider, widgetUrl: 'http://buy.moonpay.example' }])).toThrow(
      'an on-ramp provider URL must be an https origin',
    )
  })

  it('refuses two providers of one id, an unknown kind and short secrets', () => {
    expect(() => parse([provider, provider])).toThrow('each provider needs an id of its own')
    expect(() => parse([{ ...provider, kind: 'paypal' }])).toThrow('onramp.providers[0].kind')
    expect(() => parse([{ ...provider, webhookSecret: 'short' }])).toThrow(
      'onramp.providers[0].webhookSecret',
    )
  })
})
