import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from './client.ts'
import { lockDataDir } from './pglite-lock.ts'

let dataDir: string
const lockFile = () => join(dataDir, 'pglite.lock')

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'trousseau-lock-'))
})
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

/** A real process: alive until killed, then its pid names nobody. */
function sleeper() {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const stop = () => {
    child.kill()
    return exited
  }
  return { pid: child.pid!, stop }
}

/** Another process that takes the lock of `dataDir` (as a server would) and keeps it until it dies. */
async function otherOwner() {
  const module = pathToFileURL(join(import.meta.dirname, 'pglite-lock.ts')).href
  const script = `
    import { lockDataDir } from ${JSON.stringify(module)}
    lockDataDir(${JSON.stringify(lockFile())}, 'elsewhere')
    console.log('locked')
    setInterval(() => {}, 60_000)
  `
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`the lock owner exited (${code})`)))
  })
  const kill = (signal: NodeJS.Signals) => {
    child.kill(signal)
    return exited
  }
  return { pid: child.pid!, kill }
}

/** Opens the database in the data directory: this process holds its lock and it answers; then closes it. */
async function expectToOpenIt(): Promise<void> {
  const database = await openDatabase({ databaseUrl: null, dataDir })
  try {
    expect((await readFile(lockFile(), 'utf8')).trim()).toBe(String(process.pid))
    expect(await database.ping()).toBeGreaterThanOrEqual(0)
  } finally {
    await database.close()
  }
}

// Creating a PGlite directory on disk (initdb) takes seconds, and more on a busy machine.
describe('the PGlite data directory lock', { timeout: 60_000 }, () => {
  it('is taken while open, refused to a second opener in the same process, and released on close', async () => {
    const database = await openDatabase({ databaseUrl: null, dataDir })
    try {
      expect((await readFile(lockFile(), 'utf8')).trim()).toBe(String(process.pid))
      await expect(openDatabase({ databaseUrl: null, dataDir })).rejects.toThrow(
        'already open in this process',
      )
    } finally {
      await database.close()
    }
    await expect(readFile(lockFile())).rejects.toThrow('ENOENT')
  })

  it('refuses a directory held by another live process, in one line naming its pid', async () => {
    const other = sleeper()
    try {
      await writeFile(lockFile(), `${other.pid}\n`)
      const error = await openDatabase({ databaseUrl: null, dataDir }).catch((caught: Error) => caught)
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).message).toBe(
        `The database in ${join(dataDir, 'pglite')} is in use by another process (pid ${other.pid}); stop it first or use another DATA_DIR.`,
      )
    } finally {
      await other.stop()
    }
  })

  it('takes over a stale lock left by a dead process', async () => {
    const gone = sleeper()
    await gone.stop()
    await writeFile(lockFile(), `${gone.pid}\n`)
    await expectToOpenIt()
  })

  it('is held by a live owner in another process: refused in one line naming its pid', async () => {
    const owner = await otherOwner()
    try {
      const error = await openDatabase({ databaseUrl: null, dataDir }).catch((caught: Error) => caught)
      expect((error as Error).message).toBe(
        `The database in ${join(dataDir, 'pglite')} is in use by another process (pid ${owner.pid}); stop it first or use another DATA_DIR.`,
      )
    } finally {
      await owner.kill('SIGTERM')
    }
  })

  it('is released by the operating system when its owner is killed (SIGKILL), even if its pid is reused', async () => {
    const owner = await otherOwner()
    await owner.kill('SIGKILL')
    // The crash left its files behind, and the pid they name now belongs to a live process.
    const reused = sleeper()
    try {
      await writeFile(lockFile(), `${reused.pid}\n`)
      await expectToOpenIt()
    } finally {
      await reused.stop()
    }
  })

  it('can be taken again at once in the same process once released', () => {
    const first = lockDataDir(lockFile(), 'here')
    first.release()
    const second = lockDataDir(lockFile(), 'here')
    second.release()
    first.release() // a second release does nothing
  })
})
