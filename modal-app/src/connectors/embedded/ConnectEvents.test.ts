import { describe, expect, it } from 'vitest'
import type { Event } from '../../core/Analytics.ts'
import * as ConnectEvents from './ConnectEvents.ts'

function recorded() {
  const events: Event[] = []
  return { events, connect: ConnectEvents.create((event) => void events.push(event)) }
}

describe('the embedded wallet’s connect events', () => {
  it('records a login started and the wallet it opened, with the method and name', () => {
    const { events, connect } = recorded()
    connect.started('email', 'Email')
    connect.connected()
    expect(events).toEqual([
      { event: 'CONNECT_STARTED', properties: { method: 'email', name: 'Email' } },
      { event: 'CONNECT_SUCCESS', properties: { method: 'email', name: 'Email' } },
    ])
  })

  it('records a failed login with its message, and one outcome per login', () => {
    const { events, connect } = recorded()
    connect.started('social', 'google')
    connect.failed('The login window was blocked.')
    connect.failed('again')
    connect.connected()
    expect(events).toEqual([
      { event: 'CONNECT_STARTED', properties: { method: 'social', name: 'google' } },
      {
        event: 'CONNECT_ERROR',
        properties: { method: 'social', name: 'google', message: 'The login window was blocked.' },
      },
    ])
  })

  it('records no outcome without a login, as for a session restored after a reload', () => {
    const { events, connect } = recorded()
    connect.connected()
    connect.failed('no')
    expect(events).toEqual([])
  })

  it('names the latest login when another starts before the first ended', () => {
    const { events, connect } = recorded()
    connect.started('email', 'Email')
    connect.started('social', 'github')
    connect.connected()
    expect(events.at(-1)).toEqual({
      event: 'CONNECT_SUCCESS',
      properties: { method: 'social', name: 'github' },
    })
  })
})
