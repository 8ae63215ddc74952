import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One server and one browser per file; two files at a time (Vitest's default would be one on two cores):
    // a browser test waits on the page about as much as it computes.
    maxWorkers: 2,
  },
})
