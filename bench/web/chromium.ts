// Debian's Chromium for one Lighthouse run: a fresh profile every time, so no service worker, cache or
// storage carries over from a previous run; stopped and its profile removed afterwards.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CHROMIUM_ARGS } from '../../tests/e2e/harness.ts'
import { freePort } from '../../tests/server/processes.ts'

const CHROMIUM_PATH = '/usr/bin/chromium'

const STARTUP_TIMEOUT_MS = 30_000
const STOP_TIMEOUT_MS = 5_000

/** Every Chromium started and not yet stopped, for a clean stop on a signal. */
const running = new Set<RunningChromium>()
let closed = false

/** Stops every Chromium still running; no other one starts afterwards. */
export async function stopAllChromium(): Promise<void> {
  closed = true
  await Promise.all([...running].map((chromium) => chromium.stop()))
}

export type RunningChromium = {
  /** The DevTools port Lighthouse connects to. */
  port: number
  stop(): Promise<void>
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

export async function launchChromium(): Promise<RunningChromium> {
  if (closed) throw new Error('Chromium was stopped for good (interrupted)')
  const profile = await mkdtemp(join(tmpdir(), 'trousseau-bench-chromium-'))
  const port = await freePort()
  const child = spawn(
    CHROMIUM_PATH,
    [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )

  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= (async () => {
      running.delete(handle)
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
        await exited(child)
        clearTimeout(killer)
      }
      await rm(profile, { recursive: true, force: true, maxRetries: 3 })
    })()
    return stopping
  }

  const handle: RunningChromium = { port, stop }
  running.add(handle)
  if (closed) {
    await stop()
    throw new Error('Chromium was stopped for good (interrupted)')
  }
  try {
    await new Promise<void>((resolve, reject) => {
      let log = ''
      const timer = setTimeout(
        () => reject(new Error(`Chromium did not open DevTools within ${STARTUP_TIMEOUT_MS} ms:\n${log}`)),
        STARTUP_TIMEOUT_MS,
      )
      child.stderr?.setEncoding('utf8')
      child.stderr?.on('data', (chunk: string) => {
        log += chunk
        if (log.includes('DevTools listening on')) {
          clearTimeout(timer)
          resolve()
        }
      })
      child.once('error', (error) => {
        clearTimeout(timer)
        reject(error)
      })
      child.once('exit', (code, signal) => {
        clearTimeout(timer)
        reject(new Error(`Chromium exited (${signal ?? code}) before DevTools opened:\n${log}`))
      })
    })
    // Keep draining stderr so a chatty Chromium never blocks on a full pipe.
    child.stderr?.resume()
  } catch (error) {
    await stop()
    throw error
  }
  return handle
}
