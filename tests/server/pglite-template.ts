import { createHash, randomBytes } from 'node:crypto'
import { readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openPglite } from '../../server/db/client.ts'

// Migrated PGlite databases kept in the temp directory, named by the migrations they hold. No database URL is
// read here: a test that copies a data directory runs the same on either database (tests/database-dependent.ts).

const migrationsDir = new URL('../../server/db/migrations/', import.meta.url)

/** Changes whenever a migration or the journal does (its order and dates), so a stale snapshot is never loaded. */
export async function migrationsFingerprint(): Promise<string> {
  const hash = createHash('sha256').update(await readFile(new URL('meta/_journal.json', migrationsDir)))
  for (const name of (await readdir(migrationsDir)).filter((file) => file.endsWith('.sql')).sort()) {
    hash.update(name).update(await readFile(new URL(name, migrationsDir)))
  }
  return hash.digest('hex').slice(0, 16)
}

/**
 * A PGlite data directory migrated to the current migrations, kept in the temp directory between files and
 * runs: a server started on a copy of it (browser files, server processes) skips initdb and the migrations
 * (~5 s of CPU each). Made under a name of its own, then renamed: two files making it at once leave one,
 * never a half-made one.
 */
export async function migratedPgliteDir(): Promise<string> {
  const template = join(tmpdir(), `trousseau-pglite-dir-${await migrationsFingerprint()}`)
  if (await stat(template).catch(() => null)) return template
  const making = `${template}.${process.pid}.${randomBytes(4).toString('hex')}`
  const database = await openPglite({ dataDir: making })
  await database.migrate()
  await database.close()
  await rename(making, template).catch(async (error) => {
    await rm(making, { recursive: true, force: true })
    if (!(await stat(template).catch(() => null))) throw error
  })
  return template
}
