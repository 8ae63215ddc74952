// Renders the app icons (PNG, and favicon.ico for what asks /favicon.ico without reading the page's icon link)
// from one SVG with Debian's Chromium. Run once after changing the design:
//   node scripts/make-icons.ts
import { writeFileSync } from 'node:fs'
import { chromium } from 'playwright-core'

const BRAND = '#3b3fb6'
const glyph = `<g fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round" stroke-linejoin="round">
  <circle cx="24" cy="26" r="10"/><path d="M31 33l17 17M41 43l5-5M45 47l4-4"/></g>`

/** `rounded` icons have corners; maskable ones fill the square and keep the glyph in the 80 % safe zone. */
function svg(maskable: boolean): string {
  const background = maskable
    ? `<rect width="64" height="64" fill="${BRAND}"/>`
    : `<rect width="64" height="64" rx="14" fill="${BRAND}"/>`
  const scale = maskable ? 'translate(9.6 9.6) scale(0.7)' : ''
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${background}<g transform="${scale}">${glyph}</g></svg>`
}

const outputs = [
  { file: 'public/icons/icon-192.png', size: 192, maskable: false },
  { file: 'public/icons/icon-512.png', size: 512, maskable: false },
  { file: 'public/icons/icon-maskable-512.png', size: 512, maskable: true },
  { file: 'public/icons/apple-touch-icon.png', size: 180, maskable: true },
]

/** favicon.ico's sizes: the tab, the bookmark bar and the desktop shortcut of browsers that read no SVG icon. */
const FAVICON_SIZES = [16, 32, 48]

/**
 * An ICO file holding PNG images (every browser reads PNG entries): a 6-byte header, one 16-byte entry per
 * image (size, 32 bits per pixel, length and offset of its PNG), then the PNGs.
 */
function ico(images: ReadonlyArray<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length)
  header.writeUInt16LE(0, 0)
  header.writeUInt16LE(1, 2) // 1: icon (2 would be a cursor)
  header.writeUInt16LE(images.length, 4)
  let offset = header.length
  images.forEach(({ size, png }, index) => {
    const entry = 6 + 16 * index
    header.writeUInt8(size % 256, entry) // 0 stands for 256
    header.writeUInt8(size % 256, entry + 1)
    header.writeUInt16LE(1, entry + 4) // colour planes
    header.writeUInt16LE(32, entry + 6) // bits per pixel
    header.writeUInt32LE(png.length, entry + 8)
    header.writeUInt32LE(offset, entry + 12)
    offset += png.length
  })
  return Buffer.concat([header, ...images.map(({ png }) => png)])
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless'],
})
try {
  const render = async (size: number, maskable: boolean) => {
    const page = await browser.newPage({ viewport: { width: size, height: size } })
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg(maskable).replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`,
    )
    const png = await page.screenshot({ omitBackground: true })
    await page.close()
    return png
  }
  for (const { file, size, maskable } of outputs) writeFileSync(file, await render(size, maskable))
  const favicons = []
  for (const size of FAVICON_SIZES) favicons.push({ size, png: await render(size, false) })
  writeFileSync('public/favicon.ico', ico(favicons))
} finally {
  await browser.close()
}
