import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/e2e/**/*.e2e.ts'],
    // A guard against a hung test, not a measure: the longest scenarios (the 60-hook stocktake, the offline
    // handover) took 45–65 s beside two other files on a slow day.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // One server per file (one browser per worker); three files at a time on two cores (Vitest's default would be
    // one): a browser test waits on the page and the server between its steps. Measured on 2 cores, the whole
    // suite on the headless shell: two at a time 396 s, three 359 s.
    maxWorkers: 3,
    // A worker keeps its loaded modules from one file to the next: the server's module graph is imported once
    // per worker rather than once per file, and the harness's Chromium (one per worker) is reused. Each file
    // still starts its own server on its own database.
    isolate: false,
  },
})
