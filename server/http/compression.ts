import { pipeline, Readable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { promisify } from 'node:util'
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib'
import type { MiddlewareHandler } from 'hono'
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress'
import { negotiateEncoding } from './static-file.ts'

const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

/** Below about 1 KiB, compression saves less than it costs (headers, CPU, and a first packet anyway). */
export const COMPRESSION_THRESHOLD = 1024

/**
 * Brotli quality 4 and gzip level 6, as measured on this API's answers (OpenAPI document 160 KiB, lists of
 * 4-220 KiB): brotli 4 is as fast as gzip 6 or faster and 4-6 % smaller (quality 5 saves up to 10 % more on
 * repetitive JSON but costs up to twice as much on lists); quality 11 is for precompressed files only.
 */
const COMPRESSORS = {
  br: (body: Uint8Array) =>
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: 4,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body: Uint8Array) => gzipped(body, { level: 6 }),
} as const

/** The same settings, as streams: for answers made as they are sent (CSV exports), never held whole. */
const STREAM_COMPRESSORS = {
  br: () =>
    createBrotliCompress({
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: 4,
      },
    }),
  gzip: () => createGzip({ level: 6 }),
} as const

/** Exports are streamed by their handlers (a year of a large organization's log): compressed as they go. */
const STREAMED_TYPE = /^text\/csv\b/i

const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i
const VARIES_ON_ENCODING = /(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i

/**
 * Compresses answers of a compressible type (JSON, CSV, text; never `text/event-stream`) of at least `threshold`
 * bytes with brotli or gzip when the client's Accept-Encoding allows it, adding `Vary: Accept-Encoding` and
 * setting Content-Length to the bytes sent. Answers already encoded, partial, bodiless, marked `no-transform`
 * or smaller than the threshold go out as they are. The body is read whole, which suits an API that builds its
 * answers in memory, except a CSV of unknown length (a streamed export), compressed as it goes; mount it
 * outside the middleware and handlers whose answers it compresses.
 */
export function compressResponses({ threshold = COMPRESSION_THRESHOLD } = {}): MiddlewareHandler {
  return async (c, next) => {
    await next()
    const res = c.res
    const type = res.headers.get('Content-Type')
    const length = res.headers.get('Content-Length')
    // `res.body` is read only once compression is on the table: asking for it turns the server's light
    // response into a full one (its fast path for string bodies is lost).
    if (
      res.status === 204 ||
      res.status === 206 ||
      res.status === 304 ||
      res.headers.has('Content-Encoding') ||
      !type ||
      !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) ||
      NO_TRANSFORM.test(res.headers.get('Cache-Control') ?? '') ||
      (length !== null && Number(length) < threshold)
    )
      return
    const coding = negotiateEncoding(c.req.header('Accept-Encoding'), ['br', 'gzip'])
    if (coding === 'identity') {
      // Nothing to encode: the answer goes as it is, its body unread (reading it costs the server's fast
      // path for string bodies), marked as one a cache must key on Accept-Encoding.
      varyOnEncoding(c.res)
      return
    }
    if (!res.body) return
    if (length === null && STREAMED_TYPE.test(type)) {
      c.res = new Response(compressedStream(res.body, coding), res)
      varyOnEncoding(c.res)
      c.res.headers.set('Content-Encoding', coding)
      return
    }
    const body = new Uint8Array(await res.arrayBuffer())
    if (body.length < threshold) {
      c.res = new Response(body, res)
      return
    }
    const encoded = await COMPRESSORS[coding](body)
    // Assigning c.res copies the old answer's headers onto the new one: adjust them afterwards.
    c.res = new Response(encoded, res)
    varyOnEncoding(c.res)
    c.res.headers.set('Content-Encoding', coding)
    c.res.headers.set('Content-Length', String(encoded.length))
    const etag = c.res.headers.get('ETag')
    if (etag && !etag.startsWith('W/')) c.res.headers.set('ETag', `W/${etag}`)
  }
}

/**
 * The body compressed chunk by chunk, with the back-pressure of the client: the source is read only as fast as
 * the compressed bytes are taken; an error or a client that goes away ends both.
 */
function compressedStream(
  body: ReadableStream<Uint8Array>,
  coding: 'br' | 'gzip',
): ReadableStream<Uint8Array> {
  const compressor = STREAM_COMPRESSORS[coding]()
  pipeline(Readable.fromWeb(body as NodeReadableStream<Uint8Array>), compressor, () => {})
  return Readable.toWeb(compressor) as ReadableStream<Uint8Array>
}

function varyOnEncoding(response: Response): void {
  const vary = response.headers.get('Vary')
  if (!vary) response.headers.set('Vary', 'Accept-Encoding')
  else if (!VARIES_ON_ENCODING.test(vary)) response.headers.set('Vary', `${vary}, Accept-Encoding`)
}
