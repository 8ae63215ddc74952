import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { expect } from 'vitest'

/** The body as the client reads it once decoded, after checking Content-Length against the bytes sent. */
export async function decodedBody(response: Response): Promise<string> {
  const body = Buffer.from(await response.arrayBuffer())
  const length = response.headers.get('content-length')
  if (length !== null) expect(Number(length)).toBe(body.length)
  const coding = response.headers.get('content-encoding')
  if (coding === 'br') return String(brotliDecompressSync(body))
  if (coding === 'gzip') return String(gunzipSync(body))
  expect(coding).toBeNull()
  return String(body)
}
