import { createHash } from 'node:crypto'
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { Worker } from 'node:worker_threads'

/** Lock files this process holds: a second open of the same directory in one process is refused too. */
const held = new Set<string>()

export class DatabaseLockedError extends Error {}

/** How long taking or giving back the lock may take before it is given up (a hung file system, say). */
const LOCK_TIMEOUT_MS = 10_000

/** Room in `sockaddr_un.sun_path` (104 bytes on macOS, 108 on Linux), its final NUL included. */
const MAX_SOCKET_PATH_BYTES = 103

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

function exists(file: string): boolean {
  try {
    statSync(file)
    return true
  } catch {
    return false
  }
}

function removeIfThere(file: string): void {
  try {
    unlinkSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

/**
 * Where the lock's socket listens: beside the lock file; on Windows a named pipe; where that path is too long for
 * a Unix socket, the shorter relative path, else a name in the temporary directory made from the full path.
 */
function socketPathFor(lockFile: string): string {
  const full = resolve(`${lockFile}.sock`)
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 24)
  if (process.platform === 'win32') return `\\\\?\\pipe\\trousseau-${hash}`
  if (Buffer.byteLength(full) <= MAX_SOCKET_PATH_BYTES) return full
  const near = relative(process.cwd(), full)
  if (Buffer.byteLength(near) <= MAX_SOCKET_PATH_BYTES) return near
  return join(tmpdir(), `trousseau-${hash}.sock`)
}

/**
 * The lock's owner: a worker thread listening on a Unix socket (a named pipe on Windows). The operating system
 * closes the socket when the process dies, however it dies (SIGKILL, a power cut), so a socket file nobody
 * answers on is stale whatever pid the old owner had. The listener answers a connection with its pid, for the
 * message a second opener shows. Taking over a stale socket (remove it, listen again) happens under a
 * `.takeover` file made with O_EXCL, so two processes that both found it stale cannot both end up holding it.
 * States in `state[0]`: 0 working, 1 held, 2 held by `state[1]`, 3 failed (logged), 4 released, 5 contended.
 */
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads')
const net = require('node:net')
const fs = require('node:fs')
const { path, takeover, pid } = workerData
const state = new Int32Array(workerData.state)
const report = (code, owner = 0) => {
  Atomics.store(state, 1, owner)
  Atomics.store(state, 0, code)
  Atomics.notify(state, 0)
}
const sleep = (ms) => new Promise((done) => setTimeout(done, ms))
const ownerOf = () =>
  new Promise((done) => {
    const socket = net.connect(path)
    let text = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => (text += chunk))
    socket.on('end', () => done({ pid: Number.parseInt(text, 10) || -1 }))
    socket.on('error', (error) => done(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? null : { pid: -1 }))
    socket.setTimeout(2000, () => { socket.destroy(); done({ pid: -1 }) })
  })
const listen = () =>
  new Promise((done, fail) => {
    const server = net.createServer((socket) => socket.end(String(pid)))
    server.once('error', fail)
    server.listen(path, () => done(server))
  })
async function take() {
  for (let round = 0; round < 50; round += 1) {
    try {
      return await listen()
    } catch (error) {
      if (error.code !== 'EADDRINUSE') throw error
    }
    const owner = await ownerOf()
    if (owner) return owner
    // Nobody answers: the owner died. Only the holder of the take-over file may remove the stale socket.
    let fd
    try {
      fd = fs.openSync(takeover, 'wx', 0o600)
    } catch (error) {
      if (error.code !== 'EEXIST') throw error
      // A take-over takes milliseconds: one older than the timeout was left by a process that died in it.
      try {
        if (Date.now() - fs.statSync(takeover).mtimeMs > ${LOCK_TIMEOUT_MS}) fs.unlinkSync(takeover)
      } catch {}
      await sleep(20)
      continue
    }
    try {
      const again = await ownerOf()
      if (again) return again
      try { fs.unlinkSync(path) } catch (error) { if (error.code !== 'ENOENT') throw error }
      return await listen()
    } finally {
      fs.closeSync(fd)
      try { fs.unlinkSync(takeover) } catch {}
    }
  }
  return { contended: true }
}
take().then(
  (held) => {
    if (held instanceof net.Server) {
      parentPort.once('message', () => held.close(() => report(4)))
      report(1)
    } else if (held.contended) {
      report(5)
      process.exit(0)
    } else {
      report(2, held.pid)
      process.exit(0)
    }
  },
  (error) => {
    console.error(error)
    report(3)
    process.exit(0)
  },
)
`

/** Runs the lock's worker and waits, blocking this thread, for it to leave state 0. */
function startOwner(socketPath: string, lockFile: string): { state: Int32Array; worker: Worker } {
  const state = new Int32Array(new SharedArrayBuffer(8))
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { path: socketPath, takeover: `${lockFile}.takeover`, pid: process.pid, state: state.buffer },
    // Plain CommonJS, whatever flags started this process (`--input-type=module` would make it a module).
    execArgv: [],
  })
  // The lock must not keep the process alive: it goes with the process.
  worker.unref()
  Atomics.wait(state, 0, 0, LOCK_TIMEOUT_MS)
  return { state, worker }
}

function inUse(what: string, owner: number | null): DatabaseLockedError {
  const who = owner !== null && owner > 0 ? ` (pid ${owner})` : ''
  return new DatabaseLockedError(
    `The database in ${what} is in use by another process${who}; stop it first or use another DATA_DIR.`,
  )
}

/**
 * PGlite is one process's database: two processes writing one data directory corrupt it. The lock is a socket
 * this process listens on (`<lockFile>.sock`, see `WORKER_SOURCE`), which the operating system releases when the
 * process dies: a crashed owner's lock is taken over even when its pid now names another process. `lockFile`
 * itself holds the owner's pid, for people. A pid file with no socket beside it was left by a version before
 * this lock: it is honoured while that pid is alive, as it was then.
 */
export function lockDataDir(lockFile: string, what: string): { release(): void } {
  if (held.has(lockFile)) {
    throw new DatabaseLockedError(`The database in ${what} is already open in this process.`)
  }
  const socketPath = socketPathFor(lockFile)
  if (process.platform !== 'win32' && !exists(socketPath)) {
    const legacy = readPid(lockFile)
    if (legacy !== null && legacy !== process.pid && alive(legacy)) throw inUse(what, legacy)
  }
  const { state, worker } = startOwner(socketPath, lockFile)
  const outcome = Atomics.load(state, 0)
  if (outcome === 2) throw inUse(what, Atomics.load(state, 1))
  if (outcome === 3) {
    // The file system refuses sockets, say: the worker logged why.
    throw new DatabaseLockedError(
      `Could not lock the database in ${what}: no socket could listen at ${socketPath}.`,
    )
  }
  if (outcome !== 1) {
    void worker.terminate()
    throw new DatabaseLockedError(`Could not lock the database in ${what}; another process keeps taking it.`)
  }
  held.add(lockFile)
  const fd = openSync(lockFile, 'w', 0o600)
  try {
    writeSync(fd, `${process.pid}\n`)
  } finally {
    closeSync(fd)
  }
  return {
    release() {
      if (!held.delete(lockFile)) return
      if (readPid(lockFile) === process.pid) removeIfThere(lockFile)
      // Closing the listener removes its socket file; wait for it, so the directory can be opened again at once.
      worker.postMessage('release')
      Atomics.wait(state, 0, 1, LOCK_TIMEOUT_MS)
      void worker.terminate()
    },
  }
}
