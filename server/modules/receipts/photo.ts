import { ErrorCode } from '../../../contract/errors.ts'
import { PHOTO_DATA_URL_PREFIX, PHOTO_MAX_BYTES, PHOTO_MAX_EDGE } from '../../../contract/receipts.ts'
import { ApiError } from '../../http/errors.ts'

/** A JPEG's frame header (SOFn): its marker (the coding process), sample precision, size and colour components. */
export type JpegFrame = {
  marker: number
  precision: number
  width: number
  height: number
  components: number
}

/**
 * The frame header of a JPEG, found as the receipt PDF's library (pdf-lib) finds it: segment after segment by
 * their lengths, the first of C0…CF but DHT (C4) taken as the frame. Null when the bytes are not a JPEG, when the
 * frame header is cut short, or when something before it would send pdf-lib's walk elsewhere: a fill byte or a
 * marker that stands alone (pdf-lib reads a length after every marker), or a length under 2.
 */
export function jpegFrame(bytes: Uint8Array): JpegFrame | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null
  let at = 2
  while (at + 4 <= bytes.length) {
    const marker = bytes[at + 1]!
    const standsAlone =
      marker === 0xff || marker === 0x00 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)
    if (bytes[at] !== 0xff || standsAlone) return null
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!
    if (length < 2) return null
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4) {
      const components = bytes[at + 9]
      if (components === undefined || length !== 8 + 3 * components || at + 2 + length > bytes.length)
        return null
      return {
        marker,
        precision: bytes[at + 4]!,
        height: (bytes[at + 5]! << 8) | bytes[at + 6]!,
        width: (bytes[at + 7]! << 8) | bytes[at + 8]!,
        components,
      }
    }
    at += 2 + length
  }
  return null
}

/** The width and height a JPEG's frame header states, or null when the bytes are not a JPEG (see `jpegFrame`). */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  const frame = jpegFrame(bytes)
  return frame && { width: frame.width, height: frame.height }
}

const NOT_A_JPEG = 'The photo must be a JPEG image.'
/** Huffman-coded baseline, extended and progressive: what a PDF's DCTDecode filter and the browsers read. */
const PDF_PROCESSES = new Set([0xc0, 0xc1, 0xc2])
/** Grey, YCbCr or RGB, CMYK: the colour spaces pdf-lib gives a JPEG; it throws on any other count. */
const PDF_COMPONENTS = new Set([1, 3, 4])

/**
 * Why the receipt's PDF cannot hold these bytes as its photo, in a sentence; null when it can. The upload is
 * refused for it, and a photo stored before this check is left out of the PDF rather than failing it.
 */
export function photoProblem(bytes: Uint8Array): string | null {
  const frame = jpegFrame(bytes)
  if (!frame || frame.width === 0 || frame.height === 0) return NOT_A_JPEG
  if (!PDF_PROCESSES.has(frame.marker)) {
    const kind = `SOF${frame.marker - 0xc0}`
    return `The photo is a ${kind} JPEG; it must be a baseline or progressive one (SOF0, SOF1 or SOF2).`
  }
  if (frame.precision !== 8)
    return `The photo has ${frame.precision}-bit samples; a JPEG of 8-bit samples is needed.`
  if (!PDF_COMPONENTS.has(frame.components)) {
    return `The photo has ${frame.components} colour components; it must have 1 (grey), 3 (colour) or 4 (CMYK).`
  }
  return null
}

/**
 * The photo's bytes, after the checks the contract's schema leaves to the server: a JPEG the receipt's PDF can
 * hold (400 `photo_invalid`, saying why), of at most `PHOTO_MAX_BYTES` and `PHOTO_MAX_EDGE` pixels on its
 * longest edge (400 `photo_too_large`). The device resizes before it sends; this refuses a device that did not.
 */
export function photoBytes(dataUrl: string): Uint8Array {
  const bytes = new Uint8Array(Buffer.from(dataUrl.slice(PHOTO_DATA_URL_PREFIX.length), 'base64'))
  if (bytes.length > PHOTO_MAX_BYTES) {
    throw new ApiError(
      400,
      ErrorCode.photoTooLarge,
      `The photo is ${Math.ceil(bytes.length / 1024)} KB; at most ${PHOTO_MAX_BYTES / 1024} KB.`,
    )
  }
  const problem = photoProblem(bytes)
  if (problem) throw new ApiError(400, ErrorCode.photoInvalid, problem)
  const size = jpegSize(bytes)!
  if (Math.max(size.width, size.height) > PHOTO_MAX_EDGE) {
    throw new ApiError(
      400,
      ErrorCode.photoTooLarge,
      `The photo is ${size.width} × ${size.height} pixels; at most ${PHOTO_MAX_EDGE} on its longest edge.`,
    )
  }
  return bytes
}
