import { createWriteStream } from 'node:fs'
import { readdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import type { Logger } from 'pino'
import type { Database } from '../../db/client.ts'
import { makeBackupsDir, makePrivateFile, PRIVATE_FILE } from './private-files.ts'

/**
 * A backup of the embedded database while the server runs. The server holds PGlite's data directory (no other
 * process may open it), so `npm run backup` asks it: it writes `<name>.request` in `$DATA_DIR/backups/` and
 * sends SIGUSR2 to the pid in the lock file. The server dumps the data directory between two statements
 * (PGlite runs one at a time: the copy is what a crash at that instant would leave, which PostgreSQL's own
 * recovery makes consistent, committed transactions only), gzipped, to `<name>.partial`, renames it `<name>`,
 * and removes the request; on failure it writes `<name>.failed` with the reason. Only a local user allowed to
 * signal the process and write in its data directory can ask, and the file stays in that directory.
 */
export const BACKUP_SIGNAL = 'SIGUSR2'
export const BACKUP_REQUEST_SUFFIX = '.request'

export const backupsDir = (dataDir: string) => join(dataDir, 'backups')

/** Answers each pending request, one after the other; resolves with the names written. */
export async function answerBackupRequests(
  database: Pick<Database, 'dump'>,
  dataDir: string,
  logger: Logger,
): Promise<string[]> {
  const dir = backupsDir(dataDir)
  await makeBackupsDir(dir)
  const requests = (await readdir(dir)).filter((name) => name.endsWith(BACKUP_REQUEST_SUFFIX))
  const written: string[] = []
  for (const request of requests) {
    const name = request.slice(0, -BACKUP_REQUEST_SUFFIX.length)
    const target = join(dir, name)
    try {
      if (!database.dump)
        throw new Error('This database is not the embedded one: use pg_dump (npm run backup)')
      const started = performance.now()
      const tarball = await database.dump()
      await pipeline(
        Readable.fromWeb(tarball.stream() as import('node:stream/web').ReadableStream),
        createGzip(),
        createWriteStream(`${target}.partial`, { mode: PRIVATE_FILE }),
      )
      await makePrivateFile(`${target}.partial`)
      await rename(`${target}.partial`, target)
      written.push(name)
      logger.info({ backup: name, ms: Math.round(performance.now() - started) }, 'backup written')
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      await rm(`${target}.partial`, { force: true })
      await writeFile(`${target}.failed`, `${reason}\n`, { mode: PRIVATE_FILE })
      logger.error({ backup: name, error: reason }, 'backup failed')
    } finally {
      await rm(join(dir, request), { force: true })
    }
  }
  return written
}

/** Listens for SIGUSR2 while the server runs; signals arriving during a backup are answered after it. */
export function answerBackupSignals(
  database: Pick<Database, 'dump'>,
  dataDir: string,
  logger: Logger,
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve()
  const onSignal = () => {
    running = running.then(() =>
      answerBackupRequests(database, dataDir, logger).catch((error: unknown) =>
        logger.error({ error: error instanceof Error ? error.message : String(error) }, 'backup failed'),
      ),
    )
  }
  process.on(BACKUP_SIGNAL, onSignal)
  return {
    async stop() {
      process.off(BACKUP_SIGNAL, onSignal)
      await running
    },
  }
}
