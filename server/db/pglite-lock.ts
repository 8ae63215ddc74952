import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'

/** Lock files this process holds: a second open of the same directory in one process is refused too. */
const held = new Set<string>()

export class DatabaseLockedError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function readPid(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10)
    return Number.isInteger(pid) && pid > 0 ? pid : null
  } catch {
    return null
  }
}

function createExclusive(file: string): boolean {
  try {
    const fd = openSync(file, 'wx', 0o600)
    writeSync(fd, `${process.pid}\n`)
    closeSync(fd)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/**
 * PGlite is one process's database: two processes writing one data directory corrupt it. The lock is a file
 * holding the owner's pid. A lock left by a dead process is taken over; so is one naming our own pid but not
 * held by us (a container restarted after a crash often gets the same pid again).
 */
export function lockDataDir(lockFile: string, what: string): { release(): void } {
  if (held.has(lockFile)) {
    throw new DatabaseLockedError(`The database in ${what} is already open in this process.`)
  }
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (createExclusive(lockFile)) {
      held.add(lockFile)
      return {
        release() {
          held.delete(lockFile)
          if (readPid(lockFile) === process.pid) unlinkSync(lockFile)
        },
      }
    }
    const owner = readPid(lockFile)
    if (owner !== null && owner !== process.pid && alive(owner)) {
      throw new DatabaseLockedError(
        `The database in ${what} is in use by another process (pid ${owner}); stop it first or use another DATA_DIR.`,
      )
    }
    try {
      unlinkSync(lockFile) // stale: its owner is gone
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  throw new DatabaseLockedError(`Could not lock the database in ${what}; another process keeps taking it.`)
}
