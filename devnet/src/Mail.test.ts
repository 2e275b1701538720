import { createServer, type Server, Socket } from 'node:net'
import { networkInterfaces } from 'node:os'
import nodemailer from 'nodemailer'
import { afterEach, describe, expect, it } from 'vitest'
import * as Mail from './Mail.ts'

const running: Mail.Instance[] = []
const busy: Server[] = []

afterEach(async () => {
  await Promise.all(running.splice(0).map((mail) => mail.stop()))
  await Promise.all(busy.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

async function startMail(): Promise<Mail.Instance> {
  const mail = await Mail.start({ smtpPort: 0, webPort: 0 })
  running.push(mail)
  return mail
}

function send(mail: Mail.Instance, message: { to: string; subject: string; text?: string; html?: string }) {
  const transport = nodemailer.createTransport({ ...mail.smtp, secure: false, ignoreTLS: true })
  return transport.sendMail({ from: 'Airlock <login@airlock.localhost>', ...message })
}

/** Whether a TCP connection to host:port is accepted. */
async function connects(host: string, port: number): Promise<boolean> {
  const socket = new Socket()
  const result = await new Promise<boolean>((resolve) => {
    socket.setTimeout(1_000)
    socket.once('connect', () => resolve(true))
    socket.once('error', () => resolve(false))
    socket.once('timeout', () => resolve(false))
    socket.connect(port, host)
  })
  socket.destroy()
  return result
}

const webPort = (mail: Mail.Instance) => Number(new URL(mail.webUrl).port)

describe('Mail', () => {
  it('reads back the code of a message sent over real SMTP', async () => {
    const mail = await startMail()
    expect(mail.smtp.host).toBe('127.0.0.1')
    await send(mail, {
      to: 'Visitor <Visitor@Example.com>',
      subject: 'Your Airlock code',
      text: 'Code: 482915',
    })
    expect(await mail.latestCode('visitor@example.com')).toBe('482915')
    const [message] = await mail.messages('VISITOR@example.com')
    expect(message).toMatchObject({
      subject: 'Your Airlock code',
      to: ['visitor@example.com'],
      code: '482915',
    })
    expect(await mail.messages('someone-else@example.com')).toEqual([])
  })

  it('takes the newest message to that recipient, and waits for one sent later', async () => {
    const mail = await startMail()
    await send(mail, { to: 'a@example.com', subject: 'Login', text: 'first 111111' })
    await send(mail, { to: 'b@example.com', subject: 'Login', text: 'other 222222' })
    await send(mail, { to: 'a@example.com', subject: 'Login', text: 'second 333333' })
    expect(await mail.latestCode('a@example.com')).toBe('333333')
    const waiting = mail.latestCode('late@example.com', { timeoutMs: 5_000 })
    await new Promise((resolve) => setTimeout(resolve, 500))
    await send(mail, { to: 'late@example.com', subject: 'Login', text: 'late 444444' })
    expect(await waiting).toBe('444444')
  })

  it('skips messages before `after`, and times out naming the recipient', async () => {
    const mail = await startMail()
    await send(mail, { to: 'a@example.com', subject: 'Login', text: 'old 111111' })
    // The Date header has whole seconds: a message in a later second is the only one that can count.
    const after = new Date(Date.now() + 1_000)
    await expect(mail.latestCode('a@example.com', { after, timeoutMs: 600 })).rejects.toThrow(
      /no login code mailed to a@example\.com .* within 600 ms/,
    )
    await new Promise((resolve) => setTimeout(resolve, after.getTime() - Date.now() + 50))
    await send(mail, { to: 'a@example.com', subject: 'Login', text: 'new 555555' })
    expect(await mail.latestCode('a@example.com', { after })).toBe('555555')
  })

  it('reads a code from HTML words, not from a colour', async () => {
    const mail = await startMail()
    await send(mail, {
      to: 'a@example.com',
      subject: 'Login',
      html: '<style>b { color: #123456 }</style><p style="color:#654321">Your code is <b>907133</b></p>',
    })
    expect(await mail.latestCode('a@example.com')).toBe('907133')
  })

  it('clears every message', async () => {
    const mail = await startMail()
    await send(mail, { to: 'a@example.com', subject: 'Login', text: '111111' })
    expect(await mail.messages()).toHaveLength(1)
    await mail.clear()
    expect(await mail.messages()).toEqual([])
  })

  it('listens on loopback only', async () => {
    const mail = await startMail()
    expect(await connects('127.0.0.1', mail.smtp.port)).toBe(true)
    expect(await connects('127.0.0.1', webPort(mail))).toBe(true)
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && !entry.internal && entry.family === 'IPv4')
    // A machine with loopback only has no other address to try; binding 127.0.0.1 is then all there is.
    if (!outside) return
    expect(await connects(outside.address, mail.smtp.port)).toBe(false)
    expect(await connects(outside.address, webPort(mail))).toBe(false)
  })

  it('frees both ports once stopped, and stops twice safely', async () => {
    const mail = await startMail()
    const ports = [mail.smtp.port, webPort(mail)]
    await Promise.all([mail.stop(), mail.stop()])
    for (const port of ports) expect(await connects('127.0.0.1', port)).toBe(false)
    await expect(mail.messages()).rejects.toThrow()
  })

  it('refuses an SMTP port that is already taken', async () => {
    const server = createServer()
    busy.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    const port = typeof address === 'object' && address ? address.port : 0
    await expect(Mail.start({ smtpPort: port, webPort: 0 })).rejects.toThrow(
      new RegExp(`mail catcher port ${port} on 127.0.0.1 is already in use`),
    )
  })
})
