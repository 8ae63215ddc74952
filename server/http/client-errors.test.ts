// Requests that go wrong on the wire, against the real listening server (PGlite): headers too large get the
// API's JSON error, and a client hanging up mid-upload is not logged as an unhandled 500.
import { mkdtemp, rm } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../config.ts'
import { createLogger } from '../logger.ts'
import { type RunningServer, startServer } from '../main.ts'

let running: RunningServer
let dataDir: string
const logLines: string[] = []

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'trousseau-wire-'))
  const config = { ...loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', NODE_ENV: 'test' }), port: 0 }
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk))
        done()
      },
    }),
  )
  running = await startServer({ ...config, publicUrl: 'http://localhost:0' }, logger)
})

afterAll(async () => {
  await running?.close()
  await rm(dataDir, { recursive: true, force: true })
})

/** Writes raw bytes to the server and gives what it answered (until it closes), or '' when `hangUp`. */
function raw(request: string, { hangUp = false } = {}): Promise<string> {
  const { port } = new URL(running.url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(request)
      if (hangUp) setTimeout(() => socket.destroy(), 50)
    })
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk
    })
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}

describe('errors on the wire', () => {
  it('answers headers too large with 431 and the API’s JSON error', async () => {
    const answer = await raw(
      `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
    )
    const [head, body] = answer.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 431 /)
    expect(head).toMatch(/content-type: application\/json/i)
    expect(JSON.parse(body!)).toEqual({
      error: { code: 'bad_request', message: 'The request headers are too large.' },
    })
  })

  it('answers a malformed request line with 400 and a JSON error', async () => {
    const answer = await raw('NOT HTTP AT ALL\r\n\r\n')
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!).error.code).toBe('bad_request')
  })

  it('answers TRACE on a known path with 405 and Allow (fetch cannot even build such a request)', async () => {
    const answer = await raw('TRACE /api/keychains HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
    expect(answer).toMatch(/^HTTP\/1\.1 405 /)
    expect(answer).toMatch(/\r\nallow: GET, HEAD, POST\r\n/i)
  })

  it('logs a client that hangs up mid-upload as such, not as an unhandled error', async () => {
    const { port } = new URL(running.url)
    await raw(
      'POST /api/email-tokens HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `Origin: http://localhost:${port}\r\nContent-Length: 100000\r\n\r\n{"email":"a`,
      { hangUp: true },
    )
    await expect
      .poll(() => logLines.some((line) => line.includes('client closed the connection mid-request')))
      .toBe(true)
    expect(logLines.filter((line) => line.includes('unhandled error'))).toEqual([])
    expect(logLines.filter((line) => /"status":5\d\d/.test(line))).toEqual([])
  })
})
