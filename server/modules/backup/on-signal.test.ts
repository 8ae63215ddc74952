// The running server's answer to `npm run backup` on PGlite: the backup and its folder are its owner's alone,
// whatever the umask and whatever mode an earlier version left the folder in.
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openPglite } from '../../db/client.ts'
import { answerBackupRequests, BACKUP_REQUEST_SUFFIX, backupsDir } from './on-signal.ts'

const logger = pino({ level: 'silent' })
const mode = async (path: string) => (await stat(path)).mode & 0o777
let database: Database
let umask: number
const dirs: string[] = []

beforeAll(async () => {
  database = await openPglite()
})
afterAll(async () => {
  await database.close()
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})
afterEach(() => {
  process.umask(umask)
})

/** A data directory whose backups folder an earlier version made 0755, with one request in it; umask 022. */
async function requested(name: string): Promise<string> {
  umask = process.umask(0o022)
  const dataDir = await mkdtemp(join(tmpdir(), 'trousseau-on-signal-'))
  dirs.push(dataDir)
  await mkdir(backupsDir(dataDir), { mode: 0o755 })
  await chmod(backupsDir(dataDir), 0o755)
  await writeFile(join(backupsDir(dataDir), `${name}${BACKUP_REQUEST_SUFFIX}`), '')
  return dataDir
}

describe('answerBackupRequests()', () => {
  it('writes the backup 0600, gzipped, and makes its folder 0700 again', async () => {
    const dataDir = await requested('backup-1.tar.gz')
    expect(await answerBackupRequests(database, dataDir, logger)).toEqual(['backup-1.tar.gz'])
    const dir = backupsDir(dataDir)
    expect(await readdir(dir)).toEqual(['backup-1.tar.gz'])
    expect(await mode(dir)).toBe(0o700)
    expect(await mode(join(dir, 'backup-1.tar.gz'))).toBe(0o600)
    expect([...(await readFile(join(dir, 'backup-1.tar.gz'))).subarray(0, 2)]).toEqual([0x1f, 0x8b])
  })

  it('writes why it failed 0600 in the same private folder', async () => {
    const dataDir = await requested('backup-2.tar.gz')
    // PostgreSQL: no dump of its own.
    expect(await answerBackupRequests({}, dataDir, logger)).toEqual([])
    const dir = backupsDir(dataDir)
    expect(await mode(dir)).toBe(0o700)
    expect(await mode(join(dir, 'backup-2.tar.gz.failed'))).toBe(0o600)
    expect(await readFile(join(dir, 'backup-2.tar.gz.failed'), 'utf8')).toBe(
      'This database is not the embedded one: use pg_dump (npm run backup)\n',
    )
  })
})
