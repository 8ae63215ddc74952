import { ErrorCode } from '../../../contract/errors.ts'
import { PHOTO_DATA_URL_PREFIX, PHOTO_MAX_BYTES, PHOTO_MAX_EDGE } from '../../../contract/receipts.ts'
import { ApiError } from '../../http/errors.ts'

/** The width and height a JPEG's frame header (SOF) states, or null when the bytes are not a JPEG. */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null
  let at = 2
  while (at + 8 < bytes.length) {
    if (bytes[at] !== 0xff) return null
    const marker = bytes[at + 1]!
    // Fill bytes, and the markers that stand alone (no length).
    if (marker === 0xff) {
      at += 1
      continue
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2
      continue
    }
    // SOF0…SOF15 but DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return {
        height: (bytes[at + 5]! << 8) | bytes[at + 6]!,
        width: (bytes[at + 7]! << 8) | bytes[at + 8]!,
      }
    }
    at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!)
  }
  return null
}

/**
 * The photo's bytes, after the checks the contract's schema leaves to the server: a JPEG (400 `photo_invalid`),
 * of at most `PHOTO_MAX_BYTES` and `PHOTO_MAX_EDGE` pixels on its longest edge (400 `photo_too_large`). The
 * device resizes before it sends; this refuses a device that did not.
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
  const size = jpegSize(bytes)
  if (!size || size.width === 0 || size.height === 0)
    throw new ApiError(400, ErrorCode.photoInvalid, 'The photo must be a JPEG image.')
  if (Math.max(size.width, size.height) > PHOTO_MAX_EDGE) {
    throw new ApiError(
      400,
      ErrorCode.photoTooLarge,
      `The photo is ${size.width} × ${size.height} pixels; at most ${PHOTO_MAX_EDGE} on its longest edge.`,
    )
  }
  return bytes
}
