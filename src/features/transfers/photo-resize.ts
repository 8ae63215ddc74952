import { PHOTO_DATA_URL_PREFIX, PHOTO_MAX_BYTES, PHOTO_MAX_EDGE } from '../../../contract/receipts.ts'

/** The bytes a base64 data URL holds. */
export function dataUrlBytes(dataUrl: string): number {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1)
  return Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0)
}

/**
 * The size of a `width` × `height` picture brought to at most `edge` pixels on its longest side, the same
 * shape, never enlarged, at least one pixel each way.
 */
export function fitWithin(width: number, height: number, edge: number): { width: number; height: number } {
  const scale = Math.min(1, edge / Math.max(width, height))
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) }
}

/**
 * A photo from the camera or the gallery as a JPEG data URL the server takes: at most `PHOTO_MAX_EDGE` pixels on
 * its longest edge and `PHOTO_MAX_BYTES`, made on the device (lower quality first, then smaller).
 */
export async function resizePhoto(file: Blob): Promise<string> {
  const bitmap = await createImageBitmap(file)
  try {
    let edge = Math.min(PHOTO_MAX_EDGE, Math.max(bitmap.width, bitmap.height))
    for (let round = 0; round < 6; round += 1) {
      const canvas = document.createElement('canvas')
      const size = fitWithin(bitmap.width, bitmap.height, edge)
      canvas.width = size.width
      canvas.height = size.height
      const context = canvas.getContext('2d')
      if (!context) throw new Error('no canvas')
      context.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
      for (const quality of [0.85, 0.7, 0.55]) {
        const dataUrl = canvas.toDataURL('image/jpeg', quality)
        if (dataUrl.startsWith(PHOTO_DATA_URL_PREFIX) && dataUrlBytes(dataUrl) <= PHOTO_MAX_BYTES)
          return dataUrl
      }
      edge = Math.round(edge * 0.75)
    }
    throw new Error('the photo stays too large')
  } finally {
    bitmap.close()
  }
}
