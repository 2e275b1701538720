import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as Config from '../../Config.ts'
import { closedPort } from '../../internal/closedPort.ts'
import * as Catcher from './internal/maildev.ts'
import * as Mailer from './Mailer.ts'
import { codeMail } from './messages.ts'

describe('Mailer.smtp', () => {
  const login = { user: 'airlock', pass: 'correct horse' }
  let catcher: Catcher.Catcher
  // The catcher is plain SMTP on loopback, as the dev stack's: it offers no STARTTLS.
  const configOf = (smtp: Partial<Config.Email['smtp']>): Config.Email => ({
    smtp: { host: '127.0.0.1', port: catcher.port, requireTLS: false, ...smtp },
    from: 'Airlock <login@airlock.example>',
    secret: 's'.repeat(32),
  })

  beforeAll(async () => {
    catcher = await Catcher.start(login)
  })
  afterAll(() => catcher?.stop())

  it('sends a code email from the configured sender, logging in to the server', async () => {
    const to = 'ada@mail.example'
    await Mailer.smtp(configOf(login)).send({ to, ...codeMail('login', '042917', 10) })
    const caught = await catcher.nth(to, 1)
    expect(caught.from).toEqual([{ address: 'login@airlock.example', name: 'Airlock' }])
    expect(caught.to).toEqual([{ address: to, name: '' }])
    expect(caught.subject).toBe('Your login code')
    expect(caught.text).toContain('Your login code is 042917. It is valid for 10 minutes.')
    expect(caught.html).toContain('042917')
    expect(caught.html).toContain('It is valid for 10 minutes.')
    expect(Catcher.codeOf(caught)).toBe('042917')
  })

  it('sends nothing in clear unless told to: a server that offers no STARTTLS gets no mail, nor the login', async () => {
    const to = 'eve@mail.example'
    const mail = { to, ...codeMail('login', '222222', 10) }
    const { requireTLS: _, ...byDefault } = configOf(login).smtp
    await expect(Mailer.smtp({ ...configOf(login), smtp: byDefault }).send(mail)).rejects.toThrow(/STARTTLS/)
    await expect(Mailer.smtp(configOf({ ...login, requireTLS: true })).send(mail)).rejects.toThrow(/STARTTLS/)
    expect(await catcher.inbox(to)).toEqual([])
    await Mailer.smtp(configOf({ ...login, requireTLS: false })).send(mail)
    expect(Catcher.codeOf(await catcher.nth(to, 1))).toBe('222222')
  })

  it('rejects when the server refuses it or cannot be reached', async () => {
    const mail = { to: 'bob@mail.example', ...codeMail('login', '111111', 10) }
    await expect(Mailer.smtp(configOf({ ...login, pass: 'wrong' })).send(mail)).rejects.toThrow()
    await expect(Mailer.smtp(configOf({})).send(mail)).rejects.toThrow()
    await expect(Mailer.smtp(configOf({ port: await closedPort() })).send(mail)).rejects.toThrow()
    expect(await catcher.inbox('bob@mail.example')).toEqual([])
  })
})

describe('codeMail', () => {
  it('tells each purpose apart, and names the code and its validity in text and HTML', () => {
    const mails = (['login', 'change-primary', 'change-secondary'] as const).map((purpose) =>
      codeMail(purpose, '987654', 10),
    )
    expect(new Set(mails.map((mail) => mail.subject)).size).toBe(3)
    for (const mail of mails) {
      for (const body of [mail.text, mail.html]) {
        expect(body).toContain('987654')
        expect(body).toContain('10 minutes')
      }
    }
  })
})
