// Renders the app icons (PNG) from one SVG with Debian's Chromium. Run once after changing the design:
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

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless'],
})
try {
  for (const { file, size, maskable } of outputs) {
    const page = await browser.newPage({ viewport: { width: size, height: size } })
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg(maskable).replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`,
    )
    writeFileSync(file, await page.screenshot({ omitBackground: true }))
    await page.close()
  }
} finally {
  await browser.close()
}
