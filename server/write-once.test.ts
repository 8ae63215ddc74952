import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeOnce } from './write-once.ts'

describe('writeOnce', () => {
  it('keeps the first of many writers whole, mode 0600, and leaves nothing aside', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'write-once-'))
    const file = join(dir, 'secret.key')
    const contents = Array.from({ length: 20 }, (_, i) => `${String(i).repeat(4000)}\n`)
    // Each writer reads right after its own write, as a starting process does: never a part of a file.
    const read = await Promise.all(
      contents.map(async (content) => {
        await writeOnce(file, content)
        return readFile(file, 'utf8')
      }),
    )
    const kept = await readFile(file, 'utf8')
    expect(contents).toContain(kept)
    expect(new Set(read)).toEqual(new Set([kept]))
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(await readdir(dir)).toEqual(['secret.key'])
  })

  it('passes on a failure other than the file being there', async () => {
    await expect(writeOnce(join(tmpdir(), 'no-such-dir', 'x', 'file'), 'x')).rejects.toMatchObject({
      code: 'ENOENT',
    })
  })
})
