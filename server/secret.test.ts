import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveSessionSecret } from './secret.ts'

describe('resolveSessionSecret', () => {
  it('prefers SESSION_SECRET', async () => {
    const secret = await resolveSessionSecret({ sessionSecret: 'x'.repeat(32), dataDir: '/nonexistent' })
    expect(secret.toString()).toBe('x'.repeat(32))
  })

  it('creates $DATA_DIR/secret.key once, mode 0600, and reuses it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'trousseau-secret-'))
    try {
      const first = await resolveSessionSecret({ sessionSecret: null, dataDir })
      const second = await resolveSessionSecret({ sessionSecret: null, dataDir })
      expect(first.equals(second)).toBe(true)
      expect(first.length).toBeGreaterThanOrEqual(32)
      const file = join(dataDir, 'secret.key')
      expect((await stat(file)).mode & 0o777).toBe(0o600)
      expect((await readFile(file, 'utf8')).trim()).toBe(first.toString())
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
