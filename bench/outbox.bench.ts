// Replay benchmark: 1 000 scans queued on a device (the app's own outbox, on fake-indexeddb) are drained
// against the real server on loopback by the app's own worker code; then every item is replayed as if all the
// answers had been lost. Prints the times; fails on any duplicate or lost scan.
import 'fake-indexeddb/auto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadConfig } from '../server/config.ts'
import { scans, users } from '../server/db/schema.ts'
import { sessionCookieName } from '../server/http/session-cookie.ts'
import { createLogger } from '../server/logger.ts'
import { type RunningServer, startServer } from '../server/main.ts'
import { createSession } from '../server/modules/auth/sessions.ts'
import { createOrganization } from '../server/modules/organizations/service.ts'
import { createTags } from '../server/modules/tags/service.ts'
import { freePort } from '../tests/server/processes.ts'

const SCANS = 1000
let server: RunningServer
let dataDir = ''

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'trousseau-bench-'))
  const port = await freePort()
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
  })
  server = await startServer(config, createLogger('warn'))
})

afterAll(async () => {
  await server?.close()
  await rm(dataDir, { recursive: true, force: true })
})

it(`drains ${SCANS} queued scans against the real server, and a full replay adds none`, async () => {
  const { deps } = server
  const now = deps.clock.now()
  const [user] = await deps.database.db
    .insert(users)
    .values({
      email: 'bench@example.com',
      firstName: 'Bench',
      lastName: '',
      locale: 'fr',
      createdAt: now,
      lastSeenAt: now,
    })
    .returning()
  const organization = await createOrganization(deps, user!, {
    name: 'Bench',
    address: { line1: '1 rue du Banc', line2: '', city: 'Paris', postalCode: '75001', country: 'FR' },
  })
  const tags = await createTags(
    deps.database.db,
    organization.id,
    {
      alphaCode: 'BEN',
      count: 50,
      name: 'Banc',
      startNumber: 1,
      foregroundColor: '#111827',
      backgroundColor: '#fde68a',
    },
    now,
  )
  const { sessionId } = await createSession(deps, user!.id, 'bench')
  const cookie = `${sessionCookieName(deps.config)}=${sessionId}`
  const origin = new URL(deps.config.publicUrl).origin

  // The app's API client speaks to `/api` with the browser's cookies: here, the server's address and the session.
  process.env.VITE_API_BASE_URL = `${server.url}/api`
  const browserFetch = globalThis.fetch
  globalThis.fetch = (input, init = {}) =>
    browserFetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), cookie, origin } })
  const { enqueue, drain, outboxItems } = await import('../src/offline/outbox.ts')
  const { sendItem } = await import('../src/offline/transport.ts')
  const { withDb } = await import('../src/offline/db.ts')

  const queued = performance.now()
  for (let index = 0; index < SCANS; index += 1) {
    await enqueue({
      kind: 'scan',
      userId: user!.id,
      organizationId: organization.id,
      value: tags[index % tags.length]!.code,
      label: 'bench',
    })
  }
  const queuedMs = performance.now() - queued

  const started = performance.now()
  const report = await drain((item) => sendItem(item, true), { userId: user!.id })
  const drainMs = performance.now() - started
  expect(report).toMatchObject({ sent: SCANS, refused: 0, stoppedUnreachable: false })

  // Every answer lost: the whole outbox goes again, under the same keys.
  await withDb((db) => db.outbox.toCollection().modify({ status: 'pending', attempts: 0, nextAttemptAt: 0 }))
  const replayStarted = performance.now()
  const replay = await drain((item) => sendItem(item, true), { userId: user!.id })
  const replayMs = performance.now() - replayStarted
  expect(replay.sent).toBe(SCANS)

  const recorded = await deps.database.db.select().from(scans).where(eq(scans.userId, user!.id))
  const keys = new Set((await outboxItems()).map((item) => item.id))
  globalThis.fetch = browserFetch
  expect(keys.size).toBe(SCANS)
  expect(recorded).toHaveLength(SCANS)
  expect(recorded.every((row) => row.fromQueue)).toBe(true)

  const perSecond = (ms: number) => Math.round((SCANS / ms) * 1000)
  console.log(
    [
      `outbox replay benchmark (PGlite, loopback, ${SCANS} scans):`,
      `  queued on the device in ${Math.round(queuedMs)} ms`,
      `  drained in ${Math.round(drainMs)} ms (${perSecond(drainMs)} scans/s)`,
      `  replayed again in ${Math.round(replayMs)} ms (${perSecond(replayMs)} scans/s)`,
      `  scans recorded on the server: ${recorded.length}, duplicates: ${recorded.length - SCANS}`,
    ].join('\n'),
  )
})
