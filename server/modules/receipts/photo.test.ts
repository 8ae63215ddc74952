// The checks the server makes on a receipt's photo: the JPEG frame header read for its size, and the limits.
import { describe, expect, it } from 'vitest'
import { PHOTO_DATA_URL_PREFIX, PHOTO_MAX_BYTES, PHOTO_MAX_EDGE } from '../../../contract/receipts.ts'
import { ApiError } from '../../http/errors.ts'
import { jpegSize, photoBytes } from './photo.ts'

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

describe('jpegSize()', () => {
  it('reads the height then the width, each on two bytes, big-endian', () => {
    expect(jpegSize(jpeg(sof(0xc0, 0x0280, 0x01e0)))).toEqual({ width: 480, height: 640 })
    expect(jpegSize(jpeg(sof(0xc2, 0x0102, 0x0304)))).toEqual({ width: 0x0304, height: 0x0102 })
  })

  it('takes every SOF marker from C0 to CF, but DHT (C4), JPG (C8) and DAC (CC)', () => {
    for (const marker of [0xc0, 0xc1, 0xc3, 0xc5, 0xc7, 0xc9, 0xcb, 0xcd, 0xcf]) {
      expect(jpegSize(jpeg(sof(marker, 10, 20)))).toEqual({ width: 20, height: 10 })
    }
    // Those three are segments with a length, skipped whole: the frame header after them is the size.
    for (const marker of [0xc4, 0xc8, 0xcc]) {
      expect(jpegSize(jpeg(segment(marker, 9, 0x7f), sof(0xc0, 10, 20)))).toEqual({ width: 20, height: 10 })
    }
    // Markers just outside the range are segments too.
    for (const marker of [0xbf, 0xd9 + 0x10]) {
      expect(jpegSize(jpeg(segment(marker, 9, 0x7f), sof(0xc0, 3, 4)))).toEqual({ width: 4, height: 3 })
    }
  })

  it('skips segments by their length, fill bytes and the markers that stand alone', () => {
    // APP0 of 16 bytes, a DQT of 300 (a length over 255), fill bytes, then RST0…RST7, SOI, TEM.
    const standalone = [0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0x01].flatMap((m) => [0xff, m])
    const bytes = jpeg(
      segment(0xe0, 16, 0xc0),
      segment(0xdb, 300, 0xc0),
      [0xff, 0xff],
      standalone,
      sof(0xc0, 7, 9),
    )
    expect(jpegSize(bytes)).toEqual({ width: 9, height: 7 })
  })

  it('answers null for bytes that are not a JPEG, a segment that does not start with FF, or no frame header', () => {
    expect(jpegSize(new Uint8Array([0xd8, 0xff, ...sof(0xc0, 1, 1)]))).toBeNull()
    expect(jpegSize(new Uint8Array([0xff, 0xd9, ...sof(0xc0, 1, 1)]))).toBeNull()
    expect(jpegSize(new Uint8Array([0xfe, 0xd8, ...sof(0xc0, 1, 1)]))).toBeNull()
    expect(jpegSize(jpeg([0x00, 0xc0], sof(0xc0, 1, 1)))).toBeNull()
    expect(jpegSize(jpeg(segment(0xe0, 40)))).toBeNull()
    expect(jpegSize(new Uint8Array(SOI))).toBeNull()
  })

  it('reads a frame header only when its size bytes are all there', () => {
    const whole = new Uint8Array([...SOI, ...sof(0xc0, 0x10, 0x20).slice(0, 9)])
    expect(jpegSize(whole)).toEqual({ width: 0x20, height: 0x10 })
    expect(jpegSize(whole.subarray(0, whole.length - 1))).toBeNull()
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
})
