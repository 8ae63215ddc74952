import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { migratedPgliteDir } from '../tests/server/pglite-template.ts'
import { type Child, freePort, startServer, waitFor } from '../tests/server/processes.ts'

const mainFile = new URL('./main.ts', import.meta.url).pathname
const dirs: string[] = []

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

/** `node server/main.ts` on `dataDir`, resolved once it logs that it listens. */
async function startChild(dataDir: string, port: number, env: Record<string, string> = {}): Promise<Child> {
  // A new data directory starts as a copy of a migrated one (no initdb and migrations in each child).
  if (!existsSync(join(dataDir, 'pglite'))) {
    await cp(await migratedPgliteDir(), join(dataDir, 'pglite'), { recursive: true })
  }
  return startServer({ DATA_DIR: dataDir, PORT: String(port), ...env })
}

describe('node server/main.ts', () => {
  it('finishes an in-flight request after SIGTERM and more signals, exits 0, and keeps its data', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'trousseau-process-'))
    dirs.push(dataDir)
    const port = await freePort()
    const first = await startChild(dataDir, port)

    // A second server on the same embedded database is refused in one line.
    const second = spawnSync(process.execPath, [mainFile], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1' },
      encoding: 'utf8',
    })
    expect(second.status).toBe(1)
    expect(second.stderr).toMatch(
      new RegExp(
        `^Trousseau failed to start: The database in .* is in use by another process \\(pid ${first.process.pid}\\)[^\n]*\n$`,
      ),
    )

    // A sign-in request whose body arrives in two halves: the server holds it in flight meanwhile.
    const body = JSON.stringify({ email: 'slow@example.test' })
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk))
    const closed = new Promise((resolve) => socket.once('close', resolve))
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.write(
      [
        'POST /api/email-tokens HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        `Origin: http://localhost:${port}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        '',
        body.slice(0, 10),
      ].join('\r\n'),
    )
    // Time for the server to read the headers: from then on the request is in flight, not an idle connection.
    await new Promise((resolve) => setTimeout(resolve, 1000))

    first.process.kill('SIGTERM')
    await waitFor(
      () => first.output().includes('shutting down'),
      () => first.output(),
      90_000,
    )
    // More signals while shutting down (npm forwards each Ctrl-C): none may kill the process.
    for (const signal of ['SIGINT', 'SIGINT', 'SIGTERM'] as const) {
      first.process.kill(signal)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(first.process.exitCode).toBeNull()

    // write, not end: a client's half-close makes Node abort the request (httpAllowHalfOpen is off).
    socket.write(body.slice(10))
    await closed
    expect(answer, first.output()).toMatch(/^HTTP\/1\.1 202 /)
    expect(await first.exited).toBe(0)
    expect(first.output()).toContain('Trousseau stopped')

    // The sign-in code written before the shutdown still works after a restart on the same data.
    const code = /code: (\d{6})/.exec(first.output())?.[1]
    expect(code).toBeDefined()
    const restarted = await startChild(dataDir, port)
    try {
      const signIn = await fetch(`http://127.0.0.1:${port}/api/sessions`, {
        method: 'POST',
        headers: { origin: `http://localhost:${port}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'slow@example.test', code }),
      })
      expect(signIn.status).toBe(201)
    } finally {
      restarted.process.kill('SIGTERM')
      expect(await restarted.exited).toBe(0)
    }
  }, 240_000)
})

/** A sign-in request sent but for the last bytes of its body: the server holds it in flight until `finish`. */
async function heldRequest(port: number, email: string, connection: 'close' | 'keep-alive') {
  const body = JSON.stringify({ email })
  const socket = connect(port, '127.0.0.1')
  let answer = ''
  socket.on('data', (chunk) => (answer += chunk))
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write(
    [
      'POST /api/email-tokens HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      `Origin: http://localhost:${port}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `Connection: ${connection}`,
      '',
      body.slice(0, 10),
    ].join('\r\n'),
  )
  return {
    finish: () => socket.write(body.slice(10)),
    answer: () => answer,
    closed,
  }
}

/** Whether a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
  })
}

describe('stopping the production server (SIGTERM)', () => {
  it('refuses new connections, answers every in-flight request, and exits 0 within the grace period', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'trousseau-stop-'))
    dirs.push(dataDir)
    const port = await freePort()
    const graceMs = 20_000
    const server = await startChild(dataDir, port, {
      NODE_ENV: 'production',
      SHUTDOWN_GRACE_MS: String(graceMs),
    })
    const held = [
      await heldRequest(port, 'one@example.test', 'close'),
      await heldRequest(port, 'two@example.test', 'keep-alive'),
      await heldRequest(port, 'three@example.test', 'keep-alive'),
    ]
    // Time for the server to read the headers: from then on each request is in flight.
    await new Promise((resolve) => setTimeout(resolve, 1000))

    const signalled = Date.now()
    server.process.kill('SIGTERM')
    await waitFor(
      () => server.output().includes('shutting down'),
      () => server.output(),
      90_000,
    )
    expect(await refused(port)).toBe(true)
    expect(server.process.exitCode).toBeNull()

    for (const request of held) request.finish()
    // Keep-alive connections included: each answered connection is closed by the server, not left idle.
    await Promise.all(held.map((request) => request.closed))
    for (const request of held) expect(request.answer(), server.output()).toMatch(/^HTTP\/1\.1 202 /)
    expect(await server.exited).toBe(0)
    const took = Date.now() - signalled
    expect(took).toBeLessThan(graceMs)
    expect(server.output()).toContain('Trousseau stopped')
    expect(server.output()).not.toContain('grace period')
  }, 240_000)

  it('cuts off a request still in flight at the end of the grace period and exits 0', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'trousseau-stop-'))
    dirs.push(dataDir)
    const port = await freePort()
    const graceMs = 1500
    const server = await startChild(dataDir, port, { SHUTDOWN_GRACE_MS: String(graceMs) })
    const stuck = await heldRequest(port, 'stuck@example.test', 'close')
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const signalled = Date.now()
    server.process.kill('SIGTERM')
    await stuck.closed
    expect(await server.exited).toBe(0)
    const took = Date.now() - signalled
    expect(took).toBeGreaterThanOrEqual(graceMs - 50)
    expect(took).toBeLessThan(graceMs + 5000)
    expect(stuck.answer()).toBe('')
    expect(server.output()).toContain('in-flight requests still running at the end of the grace period')
  }, 240_000)
})
