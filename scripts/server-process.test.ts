import { describe, expect, it } from 'vitest'
import { serverProcessEnv } from './server-process.ts'

describe('the production server process', () => {
  it('starts in production mode with two malloc arenas and 16 MiB semi-spaces, unless the environment says otherwise', () => {
    expect(serverProcessEnv({ PORT: '3001' })).toEqual({
      PORT: '3001',
      NODE_ENV: 'production',
      MALLOC_ARENA_MAX: '2',
      NODE_OPTIONS: '--max-semi-space-size=16',
    })
    expect(
      serverProcessEnv({
        NODE_ENV: 'development',
        MALLOC_ARENA_MAX: '8',
        NODE_OPTIONS: '--max-semi-space-size=32',
      }),
    ).toEqual({ NODE_ENV: 'development', MALLOC_ARENA_MAX: '8', NODE_OPTIONS: '--max-semi-space-size=32' })
  })

  it('adds the semi-space cap to options of its own, and keeps them', () => {
    expect(serverProcessEnv({ NODE_OPTIONS: ' --enable-source-maps ' }).NODE_OPTIONS).toBe(
      '--enable-source-maps --max-semi-space-size=16',
    )
    expect(serverProcessEnv({ NODE_OPTIONS: '   ' }).NODE_OPTIONS).toBe('--max-semi-space-size=16')
  })
})
