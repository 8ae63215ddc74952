import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'bench',
    environment: 'node',
    include: ['bench/**/*.bench.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
})
