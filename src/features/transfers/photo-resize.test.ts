import { afterEach, describe, expect, it, vi } from 'vitest'
import { PHOTO_DATA_URL_PREFIX, PHOTO_MAX_BYTES, PHOTO_MAX_EDGE } from '../../../contract/receipts.ts'
import { dataUrlBytes, fitWithin, resizePhoto } from './photo-resize.ts'

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('fitting a photo within the longest edge', () => {
  it('brings a large landscape or portrait photo to 1280 px on its longest side, keeping its shape', () => {
    expect(fitWithin(4000, 3000, PHOTO_MAX_EDGE)).toEqual({ width: 1280, height: 960 })
    expect(fitWithin(3000, 4000, PHOTO_MAX_EDGE)).toEqual({ width: 960, height: 1280 })
    expect(fitWithin(4032, 4032, PHOTO_MAX_EDGE)).toEqual({ width: 1280, height: 1280 })
    // 2001 × 1280 / 3001 = 853.5…: rounded, not truncated nor left fractional.
    expect(fitWithin(3001, 2001, PHOTO_MAX_EDGE)).toEqual({ width: 1280, height: 853 })
    expect(fitWithin(1281, 721, PHOTO_MAX_EDGE)).toEqual({ width: 1280, height: 720 })
  })

  it('never enlarges a photo already small enough', () => {
    expect(fitWithin(800, 600, PHOTO_MAX_EDGE)).toEqual({ width: 800, height: 600 })
    expect(fitWithin(1280, 1, PHOTO_MAX_EDGE)).toEqual({ width: 1280, height: 1 })
    expect(fitWithin(1, 1, PHOTO_MAX_EDGE)).toEqual({ width: 1, height: 1 })
  })

  it('keeps at least one pixel on the short side of a very thin photo', () => {
    expect(fitWithin(20_000, 3, PHOTO_MAX_EDGE)).toEqual({ width: 1280, height: 1 })
    expect(fitWithin(3, 20_000, PHOTO_MAX_EDGE)).toEqual({ width: 1, height: 1280 })
  })

  it('follows a smaller edge for the later rounds', () => {
    expect(fitWithin(4000, 3000, 960)).toEqual({ width: 960, height: 720 })
    expect(fitWithin(4000, 3000, 720)).toEqual({ width: 720, height: 540 })
  })

  it('never gives more than the edge on either side, whatever the size', () => {
    for (let width = 1; width < 6000; width += 173)
      for (let height = 1; height < 6000; height += 211) {
        const fitted = fitWithin(width, height, PHOTO_MAX_EDGE)
        expect(Math.max(fitted.width, fitted.height)).toBeLessThanOrEqual(PHOTO_MAX_EDGE)
        expect(Math.min(fitted.width, fitted.height)).toBeGreaterThanOrEqual(1)
        if (Math.max(width, height) >= PHOTO_MAX_EDGE)
          expect(Math.max(fitted.width, fitted.height)).toBe(PHOTO_MAX_EDGE)
      }
  })
})

describe('the bytes of a data URL', () => {
  it('counts the decoded bytes, padding included', () => {
    for (let length = 0; length <= 12; length += 1) {
      const bytes = Buffer.alloc(length, 0xab)
      expect(dataUrlBytes(`${PHOTO_DATA_URL_PREFIX}${bytes.toString('base64')}`), String(length)).toBe(length)
    }
  })
})

/**
 * A browser's canvas, which jsdom lacks: its JPEG holds `bytesPerPixel(quality)` bytes a pixel, so the test
 * decides which rounds fit. Records every encoding asked for.
 */
function fakeCanvas(bytesPerPixel: (quality: number) => number, type = 'image/jpeg') {
  const encoded: Array<{ width: number; height: number; quality: number }> = []
  const drawn: unknown[][] = []
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () => ({ drawImage: (...args: unknown[]) => drawn.push(args) }) as unknown as CanvasRenderingContext2D,
  )
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockImplementation(function (
    this: HTMLCanvasElement,
    _type?: string,
    quality?: number,
  ) {
    encoded.push({ width: this.width, height: this.height, quality: quality! })
    // Anything over the limit is written just over it: the same verdict, without megabytes of text.
    const bytes = Math.min(Math.ceil(this.width * this.height * bytesPerPixel(quality!)), PHOTO_MAX_BYTES + 3)
    return `data:${type};base64,${Buffer.alloc(bytes).toString('base64')}`
  })
  return { encoded, drawn }
}

/** A decoded picture of that size; `close` is counted. */
function fakeBitmap(width: number, height: number) {
  const bitmap = { width, height, close: vi.fn() }
  const read = vi.fn(async (_file: Blob) => bitmap)
  vi.stubGlobal('createImageBitmap', read)
  return { bitmap, read }
}

const PHOTO = new Blob([new Uint8Array(16)], { type: 'image/jpeg' })

describe('resizing a photo on the device', () => {
  it('draws a 4000 × 3000 photo at 1280 × 960 and keeps the first quality that fits', async () => {
    const { bitmap, read } = fakeBitmap(4000, 3000)
    const { encoded, drawn } = fakeCanvas(() => 0.2)
    const photo = await resizePhoto(PHOTO)
    expect(read).toHaveBeenCalledWith(PHOTO)
    expect(drawn).toEqual([[bitmap, 0, 0, 1280, 960]])
    expect(encoded).toEqual([{ width: 1280, height: 960, quality: 0.85 }])
    expect(photo.startsWith(PHOTO_DATA_URL_PREFIX)).toBe(true)
    expect(dataUrlBytes(photo)).toBe(Math.ceil(1280 * 960 * 0.2))
    expect(bitmap.close).toHaveBeenCalledOnce()
  })

  it('lowers the quality before the size', async () => {
    fakeBitmap(4000, 3000)
    // 1280 × 960 × 0.25 = 307,200 bytes: exactly the limit, at the lowest quality only.
    const { encoded } = fakeCanvas((quality) => (quality > 0.6 ? 0.4 : 0.25))
    const photo = await resizePhoto(PHOTO)
    expect(encoded.map((each) => each.quality)).toEqual([0.85, 0.7, 0.55])
    expect(encoded.every((each) => each.width === 1280 && each.height === 960)).toBe(true)
    expect(dataUrlBytes(photo)).toBe(PHOTO_MAX_BYTES)
  })

  it('makes the photo smaller, a quarter at a time, when no quality fits', async () => {
    fakeBitmap(4000, 3000)
    // At 1280 × 960 even the lowest quality is over 300 KB; at 960 × 720 the first fits.
    const { encoded } = fakeCanvas(() => 0.3)
    const photo = await resizePhoto(PHOTO)
    expect(encoded.map(({ width, height }) => `${width}×${height}`)).toEqual([
      '1280×960',
      '1280×960',
      '1280×960',
      '960×720',
    ])
    expect(dataUrlBytes(photo)).toBeLessThanOrEqual(PHOTO_MAX_BYTES)
  })

  it('keeps a small photo at its own size', async () => {
    fakeBitmap(640, 480)
    const { encoded } = fakeCanvas(() => 0.5)
    await resizePhoto(PHOTO)
    expect(encoded).toEqual([{ width: 640, height: 480, quality: 0.85 }])
  })

  it('gives up after six rounds, and still releases the decoded picture', async () => {
    const { bitmap } = fakeBitmap(4000, 3000)
    const { encoded } = fakeCanvas(() => 1000)
    await expect(resizePhoto(PHOTO)).rejects.toThrow('the photo stays too large')
    expect(encoded).toHaveLength(18)
    expect(new Set(encoded.map((each) => each.width))).toEqual(new Set([1280, 960, 720, 540, 405, 304]))
    expect(bitmap.close).toHaveBeenCalledOnce()
  })

  it('refuses what a browser encodes as something else than a JPEG', async () => {
    const { bitmap } = fakeBitmap(800, 600)
    fakeCanvas(() => 0.01, 'image/png')
    await expect(resizePhoto(PHOTO)).rejects.toThrow()
    expect(bitmap.close).toHaveBeenCalledOnce()
  })

  it('fails on a file that is not a picture', async () => {
    vi.stubGlobal(
      'createImageBitmap',
      vi.fn(async () => {
        throw new DOMException('The source image could not be decoded.', 'InvalidStateError')
      }),
    )
    await expect(resizePhoto(new Blob(['not a picture']))).rejects.toThrow('could not be decoded')
  })
})
