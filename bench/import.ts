// npm run bench:import — the keychain CSV import of 10,000 rows (BENCH_IMPORT_ROWS): 2,500 keychains of four keys
// each (three KEYs and one TAG key naming a free tag of the organization), a custodian on every other keychain,
// sent to the product as production runs it (`dist-server/server.mjs`; needs `npm run build`, or at least
// `node scripts/build-server.ts`), on PostgreSQL and on PGlite (BENCH_DATABASES). Times the preview (parse and
// check every row, nothing written), the commit (check again and write it all in one transaction), a replay of
// the commit (same Idempotency-Key), and the export of the organization afterwards. Target: the commit under
// 30 s on PostgreSQL. PostgreSQL from BENCH_DATABASE_URL or TEST_DATABASE_URL (a fresh database, dropped after).
import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { eq } from 'drizzle-orm'
import { loadConfig } from '../server/config.ts'
import { openDatabase } from '../server/db/client.ts'
import { users } from '../server/db/schema.ts'
import { createTags } from '../server/modules/tags/service.ts'
import { type Database, freshDatabase, rssMiB, SESSION_SECRET, seed, startProduct } from './api/stack.ts'

const root = new URL('..', import.meta.url).pathname
const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',') as Database[]
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000)
const KEYS_PER_KEYCHAIN = 4
const TARGET_SECONDS = 30

/** Free tags IMP-00001… for the file's TAG keys, and the admin's address for its custodians. */
async function prepare(database: { dataDir: string; url: string }, organizationId: string, adminId: string) {
  const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, SESSION_SECRET })
  const opened = await openDatabase(config)
  try {
    const count = Math.ceil(ROWS / KEYS_PER_KEYCHAIN)
    const tags = await createTags(
      opened.db,
      organizationId,
      {
        alphaCode: 'IMP',
        startNumber: 1,
        count,
        name: 'Import',
        foregroundColor: '#111111',
        backgroundColor: '#ffffff',
      },
      new Date(),
    )
    const [admin] = await opened.db.select({ email: users.email }).from(users).where(eq(users.id, adminId))
    return { codes: tags.map((tag) => tag.code), email: admin!.email }
  } finally {
    await opened.close()
  }
}

function fileOf(codes: string[], email: string): string {
  const lines = ['keychain_name;custodian_email;key_name;key_type;tag_code']
  for (let row = 0; row < ROWS; row += 1) {
    const keychain = Math.floor(row / KEYS_PER_KEYCHAIN)
    const position = row % KEYS_PER_KEYCHAIN
    const name = `Import ${String(keychain + 1).padStart(5, '0')} — bâtiment ${keychain % 40}`
    const custodian = keychain % 2 === 0 ? email : ''
    lines.push(
      position === 0
        ? `${name};${custodian};Badge;TAG;${codes[keychain]}`
        : `${name};${custodian};Clé ${position};KEY;`,
    )
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = performance.now()
  const value = await work()
  return { value, seconds: (performance.now() - started) / 1000 }
}

async function benchDatabase(kind: Database) {
  const database = await freshDatabase(kind, process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL)
  try {
    const organization = await seed(database, 100)
    const { codes, email } = await prepare(database, organization.organizationId, organization.adminUserId)
    const csv = fileOf(codes, email)
    const product = await startProduct(database, root)
    try {
      const origin = `http://localhost:${new URL(product.url).port}`
      const headers = {
        cookie: `session=${organization.adminSession}`,
        origin,
        'content-type': 'application/json',
      }
      const body = JSON.stringify({ csv })
      const post = async (path: string, extra: Record<string, string> = {}) => {
        const response = await fetch(`${product.url}/api${path}`, {
          method: 'POST',
          headers: { ...headers, ...extra },
          body,
        })
        const answer = await response.json()
        if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(answer)}`)
        return answer as Record<string, number>
      }
      await new Promise((resolve) => setTimeout(resolve, 2000))
      const idleRss = rssMiB(product.pid)
      const preview = await timed(() => post('/keychain-imports/previews'))
      if (preview.value.errorCount !== 0)
        throw new Error(`the preview found errors: ${preview.value.errorCount}`)
      const key = randomUUID()
      const commit = await timed(() => post('/keychain-imports', { 'idempotency-key': key }))
      const replay = await timed(() => post('/keychain-imports', { 'idempotency-key': key }))
      const peakRss = rssMiB(product.pid)
      const exported = await timed(async () => {
        const response = await fetch(`${product.url}/api/keychain-export`, { headers })
        return (await response.text()).split('\r\n').length - 2
      })
      return {
        database: kind,
        rows: ROWS,
        bytes: Buffer.byteLength(csv),
        keychains: commit.value.keychains!,
        keys: commit.value.keys!,
        previewSeconds: preview.seconds,
        commitSeconds: commit.seconds,
        replaySeconds: replay.seconds,
        exportSeconds: exported.seconds,
        exportRows: exported.value,
        idleRss,
        rssAfter: peakRss,
      }
    } finally {
      await product.stop()
    }
  } finally {
    await database.drop()
  }
}

const uptime = async () => (await promisify(execFile)('uptime')).stdout.trim()
const start = await uptime()
console.log(`${start}; ${ROWS.toLocaleString('en')} rows (${KEYS_PER_KEYCHAIN} keys a keychain)`)
const results = []
for (const kind of DATABASES) results.push(await benchDatabase(kind))
console.log(
  '\n| database | rows | file KiB | keychains | keys | preview s | commit s | replay s | export s (rows) | RSS idle → after MiB |',
)
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for (const row of results)
  console.log(
    `| ${row.database} | ${row.rows.toLocaleString('en')} | ${Math.round(row.bytes / 1024)} | ${row.keychains} | ${row.keys} | ${row.previewSeconds.toFixed(2)} | ${row.commitSeconds.toFixed(2)} | ${row.replaySeconds.toFixed(2)} | ${row.exportSeconds.toFixed(2)} (${row.exportRows}) | ${row.idleRss} → ${row.rssAfter} |`,
  )
const end = await uptime()
console.log(`\n${end}`)
const postgres = results.find((row) => row.database === 'postgres')
if (postgres)
  console.log(
    `PostgreSQL commit of ${ROWS.toLocaleString('en')} rows: ${postgres.commitSeconds.toFixed(2)} s (target < ${TARGET_SECONDS} s): ${postgres.commitSeconds < TARGET_SECONDS ? 'met' : 'MISSED'}`,
  )
await mkdir(join(root, 'bench/results'), { recursive: true })
const file = join(root, `bench/results/import-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
await writeFile(file, JSON.stringify({ start, end, rows: ROWS, results }, null, 2))
console.log(`Results: ${file}`)
