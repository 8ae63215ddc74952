import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../tests/server/database.ts'
import { type Child, freePort, startNginx, startServer, waitFor } from '../tests/server/processes.ts'
import { startReceiver } from '../tests/server/webhook-receiver.ts'
import type { Database } from './db/client.ts'
import { tags } from './db/schema.ts'
import { SEND_LIMIT_PER_ADDRESS, SEND_LIMIT_PER_IP } from './modules/auth/sign-in-tokens.ts'
import { newPublicId } from './modules/tags/public-id.ts'

/**
 * Two API processes on one PostgreSQL behind nginx (Debian's, round robin), as README's "Several processes"
 * describes: sessions, rate limits, idempotency, jobs and webhooks behave as with one process. PostgreSQL only
 * (PGlite is one process's embedded database); CI sets TEST_DATABASE_URL and installs nginx.
 */
const adminUrl = process.env.TEST_DATABASE_URL

type Mail = { to: string; text: string }

describe.skipIf(!adminUrl)('two server processes behind nginx on one PostgreSQL', () => {
  let dir: string
  let database: Database
  const servers: Child[] = []
  let nginx: Awaited<ReturnType<typeof startNginx>>
  let origin: string
  const ports: number[] = []
  const mails: Mail[] = []
  let smtp: SMTPServer
  let receiver: Awaited<ReturnType<typeof startReceiver>>

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'trousseau-processes-'))
    database = await openTestDatabase()
    const name = (
      (await database.db.execute(sql`select current_database() as name`)) as unknown as {
        rows: [{ name: string }]
      }
    ).rows[0].name
    const url = new URL(adminUrl!)
    url.pathname = `/${name}`
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((entry) => entry.address).join(',')
          mails.push({ to, text: Buffer.concat(chunks).toString('utf8') })
          callback()
        })
      },
    })
    const smtpPort = await new Promise<number>((resolve) => {
      const listener = smtp.listen(0, '127.0.0.1', () => resolve((listener.address() as AddressInfo).port))
    })
    receiver = await startReceiver(() => 'accept')
    const proxyPort = await freePort()
    origin = `http://127.0.0.1:${proxyPort}`
    const shared = {
      DATABASE_URL: url.toString(),
      PUBLIC_URL: origin,
      // One key for every process: a session made by one is read by the other.
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      TRUST_PROXY: 'true',
      JOBS_POLL_MS: '100',
      // The webhook receiver listens on loopback.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    }
    for (const index of [0, 1]) {
      const port = await freePort()
      ports.push(port)
      servers.push(
        await startServer({ ...shared, PORT: String(port), DATA_DIR: join(dir, `server-${index}`) }),
      )
    }
    nginx = await startNginx(join(dir, 'nginx'), proxyPort, ports)
  }, 120_000)

  afterAll(async () => {
    await nginx?.stop()
    for (const server of servers) await server.stop()
    await receiver?.close()
    await new Promise((resolve) => (smtp ? smtp.close(() => resolve(undefined)) : resolve(undefined)))
    await database?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  /** A request to nginx (no port) or straight to one process, as the SPA sends it. */
  const send = (
    path: string,
    init: {
      method?: string
      json?: unknown
      cookie?: string
      port?: number
      headers?: Record<string, string>
    } = {},
  ) =>
    fetch(`http://127.0.0.1:${init.port ?? new URL(origin).port}/api${path}`, {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      headers: {
        origin,
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.cookie ? { cookie: init.cookie } : {}),
        ...init.headers,
      },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    })

  const mailsTo = (email: string) => mails.filter((mail) => mail.to === email)
  /** Long enough for both processes to poll their queue several times (JOBS_POLL_MS=100). */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1500))

  async function signInThroughFirstProcess(email: string) {
    expect((await send('/email-tokens', { json: { email } })).status).toBe(202)
    await waitFor(
      () => mailsTo(email).length > 0,
      () => `no sign-in mail to ${email}`,
    )
    const code = /\b(\d{6})\b/.exec(mailsTo(email)[0]!.text)?.[1]
    const response = await send('/sessions', { json: { email, code }, port: ports[0] })
    expect(response.status).toBe(201)
    return response.headers.getSetCookie()[0]!.split(';')[0]!
  }

  it('spreads requests over both processes (nginx round robin)', async () => {
    for (let i = 0; i < 6; i += 1) expect((await send('/health')).status).toBe(200)
    const log = await readFile(nginx.accessLog, 'utf8')
    for (const port of ports) expect(log).toContain(`/api/health 200 127.0.0.1:${port}`)
  })

  it('signs in through one process and uses the session on the other; the sign-in mail goes once', async () => {
    const email = `camille-${randomUUID().slice(0, 8)}@example.test`
    const cookie = await signInThroughFirstProcess(email)
    const profile = await send('/profile', { cookie, port: ports[1] })
    expect(profile.status).toBe(200)
    expect((await profile.json()).email).toBe(email)
    await settle()
    expect(mailsTo(email)).toHaveLength(1)
    // Signed out on the second, the session is gone on the first too.
    expect((await send('/session', { method: 'DELETE', cookie, port: ports[1] })).status).toBe(204)
    expect((await send('/profile', { cookie, port: ports[0] })).status).toBe(401)
  })

  it('gives one effect for one Idempotency-Key sent to both processes at once', async () => {
    const email = `ida-${randomUUID().slice(0, 8)}@example.test`
    const cookie = await signInThroughFirstProcess(email)
    const address = { line1: '3 quai Est', city: 'Marseille', postalCode: '13002', country: 'fr' }
    const created = await send('/organizations', { cookie, json: { name: 'Deux process', address } })
    expect(created.status).toBe(201)
    const key = randomUUID()
    const name = `Trousseau ${key.slice(0, 8)}`
    const answers = await Promise.all(
      ports.map((port) =>
        send('/keychains', { cookie, port, json: { name }, headers: { 'idempotency-key': key } }),
      ),
    )
    expect(answers.map((answer) => answer.status)).toEqual([201, 201])
    const [first, second] = await Promise.all(answers.map((answer) => answer.json()))
    expect(second.id).toBe(first.id)
    const list = await (await send(`/keychains?q=${encodeURIComponent(name)}`, { cookie })).json()
    expect(list.data.map((keychain: { id: string }) => keychain.id)).toEqual([first.id])
  })

  it('delivers a webhook once, whichever process runs the job', async () => {
    const email = `wanda-${randomUUID().slice(0, 8)}@example.test`
    const cookie = await signInThroughFirstProcess(email)
    const address = { line1: '1 rue Haute', city: 'Lyon', postalCode: '69001', country: 'fr' }
    const organization = await (
      await send('/organizations', { cookie, json: { name: 'Hooks', address } })
    ).json()
    const hook = await send('/webhooks', {
      cookie,
      json: { url: receiver.url, eventTypes: ['found_report.received'] },
    })
    expect(hook.status).toBe(201)
    const publicId = newPublicId()
    await database.db.insert(tags).values({
      publicId,
      organizationId: organization.id,
      alphaCode: 'HKS',
      number: 1,
      code: 'HKS-00001',
      name: 'Hook',
      foregroundColor: '#111111',
      backgroundColor: '#ffee00',
      createdAt: new Date(),
    })
    const report = { message: 'Trouvé au parc.', contact: 'finder@example.test' }
    expect((await send(`/tags/${publicId}/found-reports`, { json: report })).status).toBe(202)
    const { endpoint } = await hook.json()
    const test = await send(`/webhooks/${endpoint.id}/tests`, { method: 'POST', cookie })
    expect(test.status).toBe(202)
    await waitFor(
      () => receiver.accepted().length >= 2,
      () => `webhooks accepted: ${receiver.accepted().length}`,
    )
    await settle()
    const types = receiver.accepted().map((entry) => JSON.parse(entry.body).type)
    expect(types.sort()).toEqual(['found_report.received', 'webhook.test'])
    // And the admin's found-key mail, a job too, went once (after the sign-in mail).
    expect(mailsTo(email)).toHaveLength(2)
  })

  it('counts rate limits across both processes', async () => {
    // Sign-in mails: at most 5 per address in 15 minutes, whichever process is asked.
    const email = `rita-${randomUUID().slice(0, 8)}@example.test`
    // Both limits' windows are 15 minutes: the whole test stays inside one.
    expect(SEND_LIMIT_PER_IP.windowMs).toBe(SEND_LIMIT_PER_ADDRESS.windowMs)
    await outsideWindowEdge(SEND_LIMIT_PER_ADDRESS.windowMs)
    for (let i = 0; i < 6; i += 1) {
      expect((await send('/email-tokens', { json: { email }, port: ports[i % 2] })).status).toBe(202)
    }
    await waitFor(
      () => mailsTo(email).length >= 5,
      () => `mails to ${email}: ${mailsTo(email).length}`,
    )
    await settle()
    expect(mailsTo(email)).toHaveLength(5)
    // Per client address (nginx's X-Forwarded-For): 30 sends in 15 minutes, then 429, through both.
    const statuses: number[] = []
    for (let i = 0; i < 30; i += 1) {
      const other = `ip-${i}-${randomUUID().slice(0, 8)}@example.test`
      statuses.push((await send('/email-tokens', { json: { email: other } })).status)
    }
    // The earlier tests' sends from this address count too: the limit bites within these 30.
    expect(statuses.filter((status) => status === 202).length).toBeLessThan(30)
    expect(statuses.at(-1)).toBe(429)
    const log = await readFile(nginx.accessLog, 'utf8')
    for (const port of ports)
      expect(log).toMatch(new RegExp(`POST /api/email-tokens 429 127\\.0\\.0\\.1:${port}`))
  }, 90_000)
})

/**
 * Rate limits count in fixed windows (a new window starts from zero), so sends that straddle a window's edge
 * are counted in two windows. The servers run on the real clock: wait out the last seconds of a window.
 */
async function outsideWindowEdge(windowMs: number, marginMs = 45_000) {
  const left = windowMs - (Date.now() % windowMs)
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 100))
}
