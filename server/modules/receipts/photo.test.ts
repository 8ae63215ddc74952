// The checks the server makes on a receipt's photo: the JPEG frame header read as pdf-lib reads it, what the
// receipt's PDF can hold, and the limits.
import { PDFDocument } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { PHOTO_DATA_URL_PREFIX, PHOTO_MAX_BYTES, PHOTO_MAX_EDGE } from '../../../contract/receipts.ts'
import { jpegWith } from '../../../tests/server/receipt-pdf-fixture.ts'
import { ApiError } from '../../http/errors.ts'
import { jpegFrame, jpegSize, photoBytes } from './photo.ts'

const SOI = [0xff, 0xd8]
/** A frame header (SOFn) of `height` × `width`, 8-bit, one component. */
const sof = (marker: number, height: number, width: number) => [
  0xff,
  marker,
  0x00,
  0x0b,
  0x08,
  height >> 8,
  height & 0xff,
  width >> 8,
  width & 0xff,
  0x01,
  0x01,
  0x11,
  0x00,
]
/** A segment with a length (its two length bytes included) and `size` bytes of content. */
const segment = (marker: number, size: number, fill = 0x00) => [
  0xff,
  marker,
  (size + 2) >> 8,
  (size + 2) & 0xff,
  ...Array(size).fill(fill),
]
const jpeg = (...parts: number[][]) => new Uint8Array([...SOI, ...parts.flat(), 0xff, 0xd9])

describe('jpegFrame()', () => {
  it('reads the marker, the precision, the height then the width (two bytes, big-endian) and the components', () => {
    expect(jpegFrame(jpeg(sof(0xc0, 0x0280, 0x01e0)))).toEqual({
      marker: 0xc0,
      precision: 8,
      width: 480,
      height: 640,
      components: 1,
    })
    expect(jpegSize(jpeg(sof(0xc2, 0x0102, 0x0304)))).toEqual({ width: 0x0304, height: 0x0102 })
    expect(jpegFrame(jpegWith({ marker: 0xc1, precision: 12, components: 5 }))).toEqual({
      marker: 0xc1,
      precision: 12,
      width: 1,
      height: 1,
      components: 5,
    })
  })

  it('takes the first of C0 to CF but DHT (C4) as the frame, as pdf-lib does, JPG (C8) and DAC (CC) too', () => {
    for (const marker of [0xc0, 0xc1, 0xc3, 0xc5, 0xc7, 0xc8, 0xc9, 0xcb, 0xcc, 0xcd, 0xcf]) {
      expect(jpegFrame(jpeg(sof(marker, 10, 20)))).toMatchObject({ marker, width: 20, height: 10 })
    }
    // DHT is a segment with a length, skipped whole: the frame header after it is the frame.
    expect(jpegSize(jpeg(segment(0xc4, 9, 0x7f), sof(0xc0, 10, 20)))).toEqual({ width: 20, height: 10 })
    // Markers just outside the range are segments too.
    for (const marker of [0xbf, 0xd9 + 0x10]) {
      expect(jpegSize(jpeg(segment(marker, 9, 0x7f), sof(0xc0, 3, 4)))).toEqual({ width: 4, height: 3 })
    }
  })

  it('skips segments by their length, and refuses what pdf-lib would walk otherwise', () => {
    // APP0 of 16 bytes, a DQT of 300 (a length over 255).
    const bytes = jpeg(segment(0xe0, 16, 0xc0), segment(0xdb, 300, 0xc0), sof(0xc0, 7, 9))
    expect(jpegSize(bytes)).toEqual({ width: 9, height: 7 })
    // Fill bytes and the markers that stand alone have no length, which pdf-lib would read all the same.
    for (const marker of [0xff, 0x00, 0x01, 0xd0, 0xd7, 0xd8, 0xd9]) {
      expect(jpegFrame(jpeg([0xff, marker], sof(0xc0, 7, 9))), `FF ${marker.toString(16)}`).toBeNull()
    }
    expect(jpegFrame(jpeg([0xff, 0xe0, 0x00, 0x01], sof(0xc0, 7, 9)))).toBeNull()
  })

  it('refuses a marker that stands alone even where reading a length after it would reach a frame', () => {
    // Read with a length, FF xx 00 02 is an empty segment and the frame header follows it.
    const afterMarker = (first: number, marker: number) => jpeg([first, marker, 0x00, 0x02], sof(0xc0, 7, 9))
    for (const marker of [0xff, 0x00, 0x01, 0xd0, 0xd4, 0xd9]) {
      expect(jpegFrame(afterMarker(0xff, marker)), `FF ${marker.toString(16)}`).toBeNull()
    }
    // Markers next to those, and the shortest length (2: no content), are segments to skip.
    for (const marker of [0x02, 0xda, 0xe0]) {
      expect(jpegFrame(afterMarker(0xff, marker)), `FF ${marker.toString(16)}`).toMatchObject({
        width: 9,
        height: 7,
      })
    }
    // A segment that does not start with FF ends the walk, as it would send pdf-lib's elsewhere.
    expect(jpegFrame(afterMarker(0xfe, 0xe0))).toBeNull()
  })

  it('answers null for bytes that are not a JPEG, a segment that does not start with FF, or no frame header', () => {
    expect(jpegFrame(new Uint8Array([0xd8, 0xff, ...sof(0xc0, 1, 1)]))).toBeNull()
    expect(jpegFrame(new Uint8Array([0xff, 0xd9, ...sof(0xc0, 1, 1)]))).toBeNull()
    expect(jpegFrame(new Uint8Array([0xfe, 0xd8, ...sof(0xc0, 1, 1)]))).toBeNull()
    expect(jpegFrame(jpeg([0x00, 0xc0], sof(0xc0, 1, 1)))).toBeNull()
    expect(jpegFrame(jpeg(segment(0xe0, 40)))).toBeNull()
    expect(jpegFrame(new Uint8Array(SOI))).toBeNull()
  })

  it('reads a frame header only when it is all there, its length that of its components', () => {
    const whole = new Uint8Array([...SOI, ...sof(0xc0, 0x10, 0x20)])
    expect(jpegSize(whole)).toEqual({ width: 0x20, height: 0x10 })
    expect(jpegFrame(whole.subarray(0, whole.length - 1))).toBeNull()
    const longer = new Uint8Array([...whole, 0x00])
    longer[5] = 0x0c
    expect(jpegFrame(longer)).toBeNull()
  })
})

const dataUrl = (bytes: Uint8Array) => `${PHOTO_DATA_URL_PREFIX}${Buffer.from(bytes).toString('base64')}`
const refusal = (bytes: Uint8Array) => {
  try {
    photoBytes(dataUrl(bytes))
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    const { status, code, message } = error as ApiError
    return { status, code, message }
  }
  throw new Error('accepted')
}
/** A JPEG of exactly `total` bytes (padded after its end). */
const jpegOf = (total: number) => {
  const bytes = new Uint8Array(total)
  bytes.set(jpeg(sof(0xc0, 10, 10)))
  return bytes
}

describe('photoBytes()', () => {
  it('answers the decoded bytes of a JPEG within the limits', () => {
    const bytes = jpeg(sof(0xc0, PHOTO_MAX_EDGE, PHOTO_MAX_EDGE))
    expect(photoBytes(dataUrl(bytes))).toEqual(bytes)
  })

  it(`takes ${PHOTO_MAX_BYTES} bytes and refuses one more, saying how large it is in KB (rounded up)`, () => {
    expect(photoBytes(dataUrl(jpegOf(PHOTO_MAX_BYTES)))).toHaveLength(PHOTO_MAX_BYTES)
    expect(refusal(jpegOf(PHOTO_MAX_BYTES + 1))).toEqual({
      status: 400,
      code: 'photo_too_large',
      message: 'The photo is 301 KB; at most 300 KB.',
    })
  })

  it('refuses bytes that are not a JPEG, and a frame of no width or no height', () => {
    const invalid = { status: 400, code: 'photo_invalid', message: 'The photo must be a JPEG image.' }
    expect(refusal(new Uint8Array(64).fill(7))).toEqual(invalid)
    expect(refusal(jpeg(sof(0xc0, 0, 10)))).toEqual(invalid)
    expect(refusal(jpeg(sof(0xc0, 10, 0)))).toEqual(invalid)
  })

  it(`takes ${PHOTO_MAX_EDGE} pixels on the longest edge, either one, and refuses one more`, () => {
    expect(refusal(jpeg(sof(0xc0, 10, PHOTO_MAX_EDGE + 1)))).toEqual({
      status: 400,
      code: 'photo_too_large',
      message: `The photo is ${PHOTO_MAX_EDGE + 1} × 10 pixels; at most ${PHOTO_MAX_EDGE} on its longest edge.`,
    })
    expect(refusal(jpeg(sof(0xc0, PHOTO_MAX_EDGE + 1, 10)))).toMatchObject({
      code: 'photo_too_large',
      message: `The photo is 10 × ${PHOTO_MAX_EDGE + 1} pixels; at most ${PHOTO_MAX_EDGE} on its longest edge.`,
    })
    expect(photoBytes(dataUrl(jpeg(sof(0xc0, 10, PHOTO_MAX_EDGE))))).toHaveLength(
      jpeg(sof(0xc0, 1, 1)).length,
    )
  })

  it('refuses a JPEG the receipt’s PDF cannot hold, saying why', () => {
    const invalid = (message: string) => ({ status: 400, code: 'photo_invalid', message })
    expect(refusal(jpegWith({ components: 5 }))).toEqual(
      invalid('The photo has 5 colour components; it must have 1 (grey), 3 (colour) or 4 (CMYK).'),
    )
    expect(refusal(jpegWith({ components: 2 }))).toMatchObject({ code: 'photo_invalid' })
    expect(refusal(jpegWith({ components: 0 }))).toMatchObject({ code: 'photo_invalid' })
    expect(refusal(jpegWith({ precision: 12 }))).toEqual(
      invalid('The photo has 12-bit samples; a JPEG of 8-bit samples is needed.'),
    )
    expect(refusal(jpegWith({ marker: 0xc3 }))).toEqual(
      invalid('The photo is a SOF3 JPEG; it must be a baseline or progressive one (SOF0, SOF1 or SOF2).'),
    )
    // A DAC segment before the frame is where pdf-lib reads the frame: refused, not read past.
    expect(refusal(jpeg(segment(0xcc, 2), sof(0xc0, 10, 20)))).toEqual(
      invalid('The photo must be a JPEG image.'),
    )
    for (const components of [1, 3, 4]) {
      for (const marker of [0xc0, 0xc1, 0xc2]) {
        expect(photoBytes(dataUrl(jpegWith({ marker, components })))).toEqual(
          jpegWith({ marker, components }),
        )
      }
    }
  })

  it('takes only what pdf-lib embeds, at the size it reads', async () => {
    const pdf = await PDFDocument.create()
    let taken = 0
    for (let marker = 0xc0; marker <= 0xcf; marker += 1) {
      if (marker === 0xc4) continue
      for (const precision of [8, 12, 16]) {
        for (let components = 0; components <= 5; components += 1) {
          const bytes = jpegWith({ marker, precision, components, width: 37, height: 21 })
          let accepted = true
          try {
            photoBytes(dataUrl(bytes))
          } catch {
            accepted = false
          }
          if (!accepted) continue
          taken += 1
          const image = await pdf.embedJpg(bytes)
          expect([image.width, image.height]).toEqual([37, 21])
        }
      }
    }
    expect(taken).toBe(9)
    await expect(pdf.embedJpg(jpegWith({ components: 5 }))).rejects.toThrow('Unknown JPEG channel')
  })
})
