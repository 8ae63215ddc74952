import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../logger.ts'
import { createMailer } from './mailer.ts'
import { signInMail } from './sign-in-mail.ts'

let dataDir: string
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'trousseau-mail-'))
})
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

const mail = () =>
  signInMail({
    to: 'camille@example.test',
    locale: 'en',
    publicUrl: 'http://localhost:3000',
    token: 'T'.repeat(43),
    code: '424242',
  })

function capturingLogger() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  return { lines, logger: createLogger('info', stream) }
}

describe('SMTP delivery', () => {
  it('delivers to a real SMTP receiver on loopback and logs no link', async () => {
    const received: string[] = []
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          received.push(Buffer.concat(chunks).toString('utf8'))
          callback()
        })
      },
    })
    const port = await new Promise<number>((resolve) => {
      const listener = server.listen(0, '127.0.0.1', () => resolve((listener.address() as AddressInfo).port))
    })
    const { lines, logger } = capturingLogger()
    const mailer = createMailer(
      { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'Trousseau <no-reply@example.test>', dataDir },
      logger,
    )
    try {
      expect(mailer.kind).toBe('smtp')
      await mailer.send(mail())
      expect(received).toHaveLength(1)
      const raw = received[0]!
      expect(raw).toContain('To: camille@example.test')
      expect(raw).toContain('Subject: Your Trousseau sign-in')
      expect(raw).toContain('424242')
      expect(raw).toContain('text/html')
      expect(raw).toContain('text/plain')
      expect(lines.join('')).not.toContain('424242')
    } finally {
      await mailer.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

describe('outbox delivery (no SMTP_URL)', () => {
  it('writes an .eml file and logs the sign-in link and code', async () => {
    const { lines, logger } = capturingLogger()
    const mailer = createMailer(
      { smtpUrl: null, mailFrom: 'Trousseau <no-reply@localhost>', dataDir },
      logger,
    )
    expect(mailer.kind).toBe('outbox')
    await mailer.send(mail())
    const files = await readdir(join(dataDir, 'outbox'))
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+\.\d{3}Z-[0-9a-f-]{36}\.eml$/)
    const file = join(dataDir, 'outbox', files[0]!)
    const eml = await readFile(file, 'utf8')
    expect(eml).toContain('To: camille@example.test')
    expect(eml).toContain('From: Trousseau <no-reply@localhost>')
    expect(eml).toContain('424242')
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const log = lines.join('')
    expect(log).toContain(`Sign-in link: http://localhost:3000/en/?token=${'T'.repeat(43)} code: 424242`)
    expect(log).toContain('"level":30')
  })
})
