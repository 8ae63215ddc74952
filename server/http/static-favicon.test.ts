import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../../tests/server/harness.ts'

// The build copies public/ to its root as is: served from public/, the files are those of production.
const t = setupTestApp({
  config: { nodeEnv: 'production', staticDir: fileURLToPath(new URL('../../public', import.meta.url)) },
})

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** The images of an ICO file: each entry's declared width and its PNG's own width (IHDR), or why it is no ICO. */
function icoImages(file: Buffer) {
  if (file.readUInt16LE(0) !== 0 || file.readUInt16LE(2) !== 1) throw new Error('not an icon file')
  return Array.from({ length: file.readUInt16LE(4) }, (_, index) => {
    const entry = 6 + 16 * index
    const data = file.subarray(
      file.readUInt32LE(entry + 12),
      file.readUInt32LE(entry + 12) + file.readUInt32LE(entry + 8),
    )
    return {
      width: file.readUInt8(entry) || 256,
      png: data.subarray(0, 8).equals(PNG_SIGNATURE) ? data.readUInt32BE(16) : null,
    }
  })
}

describe('/favicon.ico', () => {
  it('answers an icon (what a browser asks for on a page without an icon link, a PDF, a JSON answer)', async () => {
    const response = await t.get('/favicon.ico')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/x-icon')
    const images = icoImages(Buffer.from(await response.arrayBuffer()))
    expect(images).toEqual([
      { width: 16, png: 16 },
      { width: 32, png: 32 },
      { width: 48, png: 48 },
    ])
  })
})
