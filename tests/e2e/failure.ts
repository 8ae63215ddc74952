import { mkdir, writeFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { expect } from 'vitest'

/** Keeps what a failed test saw (screenshot, browser log, local storage) under test-results/. */
export async function saveFailure(page: Page, log: string[]) {
  const name = expect.getState().currentTestName?.replace(/[^a-z0-9]+/gi, '-') ?? 'failure'
  await mkdir('test-results', { recursive: true })
  await page.screenshot({ path: `test-results/${name}.png`, fullPage: true }).catch(() => undefined)
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage })).catch(() => 'unavailable')
  await writeFile(`test-results/${name}.log`, [...log, `localStorage: ${storage}`].join('\n'))
}
