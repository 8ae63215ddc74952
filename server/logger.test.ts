import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../tests/server/database.ts'
import type { Database } from './db/client.ts'
import { users } from './db/schema.ts'
import { createLogger, maskEmails } from './logger.ts'
import { smtpMailer } from './mail/mailer.ts'

function capture() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  return { lines, logger: createLogger('info', stream), text: () => lines.join('') }
}

describe('maskEmails', () => {
  it('masks addresses and leaves the rest', () => {
    expect(maskEmails("Key (email)=(ana.o'neil+x@mail.example.fr) exists")).toBe(
      'Key (email)=([email]) exists',
    )
    expect(maskEmails('no address @ here')).toBe('no address @ here')
  })
})

describe('createLogger', () => {
  it('masks addresses in messages and in fields at any depth', () => {
    const { logger, text } = capture()
    logger.info({ email: 'a@b.example', nested: { to: ['c@d.example'] } }, 'sent to e@f.example')
    logger.warn('plain message for g@h.example')
    expect(text()).not.toMatch(/@[a-h]\.example/)
    expect(text()).toContain('sent to [email]')
  })

  it('hides credentials in fields named as one, at any depth, and keeps their ids', () => {
    const { logger, text } = capture()
    logger.info(
      {
        headers: {
          authorization: 'Bearer tok-1',
          Cookie: 'sid=cookie-2',
          'stripe-signature': 't=1,v1=sig-3',
        },
        config: { metricsToken: 'metrics-4', stripeSecretKey: 'sk-5', webhookSecret: 'whsec-6' },
        token: 'link-7',
        tokenId: 'kept-id',
        tokenHash: 'kept-hash',
      },
      'logged by mistake',
    )
    for (const secret of ['tok-1', 'cookie-2', 'sig-3', 'metrics-4', 'sk-5', 'whsec-6', 'link-7'])
      expect(text()).not.toContain(secret)
    expect(text()).toContain('"authorization":"[secret]"')
    expect(text()).toContain('"tokenId":"kept-id"')
    expect(text()).toContain('"tokenHash":"kept-hash"')
  })

  describe('errors from the database', () => {
    let database: Database
    beforeAll(async () => {
      database = await openTestDatabase()
    })
    afterAll(async () => {
      await database.close()
    })

    it('logs a failed query without its parameters or the row it names', async () => {
      const now = new Date()
      const row = { email: 'taken@example.test', createdAt: now, lastSeenAt: now }
      await database.db.insert(users).values(row)
      const error = await database.db
        .insert(users)
        .values(row)
        .then(() => null)
        .catch((caught: unknown) => caught)
      expect(String((error as Error).message)).toContain('taken@example.test')
      const { logger, text } = capture()
      logger.error({ err: error }, 'query failed')
      logger.error(error as Error)
      expect(text()).not.toContain('taken@example.test')
      expect(text()).toContain('"type":"DrizzleQueryError"')
      expect(text()).toContain('"code":"23505"')
      expect(text()).toContain('params: [hidden]')
    })
  })

  it('logs a refused recipient from nodemailer without the address', async () => {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onRcptTo(address, _session, callback) {
        callback(new Error(`<${address.address}> mailbox unavailable`))
      },
    })
    const port = await new Promise<number>((resolve) => {
      const listener = server.listen(0, '127.0.0.1', () => resolve((listener.address() as AddressInfo).port))
    })
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, 'Trousseau <no-reply@example.test>')
    try {
      const error = await mailer
        .send({ to: 'refused@example.test', subject: 's', text: 't', html: '<p>t</p>' })
        .then(() => null)
        .catch((caught: unknown) => caught)
      expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).toContain(
        'refused@example.test',
      )
      const { logger, text } = capture()
      logger.error({ err: error }, 'mail failed')
      expect(text()).not.toContain('refused@example.test')
      expect(text()).not.toContain('no-reply@example.test')
      expect(text()).toContain('"code":"EENVELOPE"')
    } finally {
      await mailer.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
