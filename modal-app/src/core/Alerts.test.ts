import { describe, expect, it } from 'vitest'
import * as Alerts from './Alerts.ts'

describe('alerts', () => {
  it('shows each alert once; a later detail sharpens it', () => {
    let changes = 0
    const alerts = Alerts.create(() => changes++)
    alerts.add('invalidAppConfiguration')
    alerts.add('invalidAppConfiguration')
    expect(alerts.list()).toEqual([
      {
        kind: 'invalidAppConfiguration',
        title: 'Invalid App Configuration',
        detail: 'This site is not allowed to use this project. Check the project’s allowed origins.',
      },
    ])
    alerts.add('invalidAppConfiguration', "Origin http://evil.test is not allowed for project 'demo'.")
    expect(alerts.list().map((alert) => alert.detail)).toEqual([
      "Origin http://evil.test is not allowed for project 'demo'.",
    ])
    expect(changes).toBe(2)
  })

  it('tells whoever asked, once, that the visitor closed the alert', () => {
    const alerts = Alerts.create(() => {})
    const told: string[] = []
    alerts.add('projectIdNotConfigured', undefined, () => told.push('host'))
    alerts.dismiss()
    alerts.dismiss()
    expect(told).toEqual(['host'])
  })
})
