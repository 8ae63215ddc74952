import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { type CsvFileProblem, IMPORT_MAX_CHARS } from '../../../contract/keychain-import.ts'
import { organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { IMPORT_MAX_BODY_BYTES } from '../../http/request-guards.ts'

const t = setupTestApp()
let cookie = ''
beforeAll(async () => {
  const { organization } = await organizationWithAdmin(t)
  cookie = (await signedInMember(t, organization.id, 'MANAGER')).cookie
})

const HEADER = 'keychain_name,custodian_email,key_name,key_type,tag_code\n'
const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2

/**
 * The request body `{ csv }` of the header, `start` and `unit` as many times as the import takes: up to
 * `IMPORT_MAX_CHARS` characters of CSV in up to `IMPORT_MAX_BODY_BYTES` of JSON (a line break is two bytes of it).
 */
function atTheLimit(unit: string, start = ''): string {
  const head = HEADER + start
  const times = Math.min(
    (IMPORT_MAX_CHARS - head.length) / unit.length,
    (IMPORT_MAX_BODY_BYTES - '{"csv":""}'.length - jsonBytes(head)) / jsonBytes(unit),
  )
  const body = JSON.stringify({ csv: head + unit.repeat(Math.floor(times)) })
  const csvLength = head.length + Math.floor(times) * unit.length
  // At the limit: whichever of the two binds is all but reached.
  expect(Math.max(csvLength / IMPORT_MAX_CHARS, body.length / IMPORT_MAX_BODY_BYTES)).toBeGreaterThan(0.999)
  return body
}

/** The worst files for the reader, each as large as the routes take, and why each is refused. */
const WORST: Array<[string, () => string, CsvFileProblem]> = [
  ['1.7 million short lines', () => atTheLimit('K\n'), 'too_many_rows'],
  ['half a million rows of two quoted lines', () => atTheLimit('"K\nL"\n'), 'too_many_rows'],
  ['1.7 million empty rows of fewer cells than the header', () => atTheLimit(',\n'), 'too_many_empty_rows'],
  ['one line of 4 million characters', () => atTheLimit('a'), 'row_too_long'],
  ['one row of 4 million cells', () => atTheLimit(','), 'row_too_long'],
  ['one quoted cell of 2.6 million line breaks', () => atTheLimit('\n', '"'), 'row_too_long'],
]

/**
 * Bounds for one request, loose enough for a 2-core machine busy with other test runs. The reader parses 2 KiB
 * between two turns of the event loop and keeps at most `IMPORT_MAX_ROWS` rows; what else holds the loop is the
 * request's 5 MiB of JSON (read, decoded, parsed: some 50 ms idle) and the garbage collector. Measured under a load
 * of 9 to 15: 0.06 to 1.5 s for the longest hold, 0 to 51 MB of heap growth (20,000 rows kept are some 20 MB). The
 * whole-file parse this replaced held the loop 7 s on an idle machine for the first of these files, a minute and
 * more under that load, and grew the heap by 0.9 to 3.6 GB.
 */
const LONGEST_BLOCK_MS = 3000
const HEAP_GROWTH_MB = 250

/**
 * Sends the request while a timer samples every 5 ms: the longest the event loop went without a turn (so without
 * serving another request), and how far the heap grew above what it held before.
 */
async function measured(send: () => Promise<Response>) {
  const heapBefore = process.memoryUsage().heapUsed
  let heapPeak = heapBefore
  let last = performance.now()
  let longestBlockMs = 0
  const sample = () => {
    const now = performance.now()
    longestBlockMs = Math.max(longestBlockMs, now - last)
    last = now
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)
  }
  const timer = setInterval(sample, 5)
  try {
    const response = await send()
    sample()
    return { response, longestBlockMs, heapGrowthMb: (heapPeak - heapBefore) / 2 ** 20 }
  } finally {
    clearInterval(timer)
  }
}

const ROUTES = [
  ['the preview', '/api/keychain-imports/previews', {}],
  ['the commit', '/api/keychain-imports', { 'idempotency-key': randomUUID() }],
] as const

describe.each(ROUTES)('%s of a file at the body limit', (_route, path, headers) => {
  it.each(WORST)(
    '%s: a 400 saying why, the event loop never held for seconds, the heap not grown by the file',
    async (name, bodyOf, reason) => {
      const body = bodyOf()
      const { response, longestBlockMs, heapGrowthMb } = await measured(() =>
        t.post(path, { cookie, body, headers: { ...headers, 'content-type': 'application/json' } }),
      )
      expect(response.status, name).toBe(400)
      expect((await response.json()).error).toMatchObject({ code: 'csv_invalid', reason })
      expect(longestBlockMs, `${name}: the event loop held ${longestBlockMs.toFixed(0)} ms`).toBeLessThan(
        LONGEST_BLOCK_MS,
      )
      expect(heapGrowthMb, `${name}: the heap grew ${heapGrowthMb.toFixed(0)} MB`).toBeLessThan(
        HEAP_GROWTH_MB,
      )
    },
    60_000,
  )
})
