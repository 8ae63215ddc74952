import { describe, expect, it } from 'vitest'
import { serverProcessEnv } from './server-process.ts'

describe('the production server process', () => {
  it('starts in production mode with two malloc arenas, unless the environment says otherwise', () => {
    expect(serverProcessEnv({ PORT: '3001' })).toEqual({
      PORT: '3001',
      NODE_ENV: 'production',
      MALLOC_ARENA_MAX: '2',
    })
    expect(serverProcessEnv({ NODE_ENV: 'development', MALLOC_ARENA_MAX: '8' })).toEqual({
      NODE_ENV: 'development',
      MALLOC_ARENA_MAX: '8',
    })
  })
})
