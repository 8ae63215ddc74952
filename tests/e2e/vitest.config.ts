import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One server per file (one browser per worker); two files at a time (Vitest's default would be one on two cores):
    // a browser test waits on the page about as much as it computes.
    maxWorkers: 2,
    // A worker keeps its loaded modules from one file to the next: the server's module graph is imported once
    // per worker rather than once per file, and the harness's Chromium (one per worker) is reused. Each file
    // still starts its own server on its own database.
    isolate: false,
  },
})
