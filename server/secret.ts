import { randomBytes } from 'node:crypto'
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Config } from './config.ts'
import { writeOnce } from './write-once.ts'

/**
 * The key behind every HMAC (session ids, sign-in tokens and codes). SESSION_SECRET wins; otherwise a random
 * key is created once in `$DATA_DIR/secret.key` (mode 0600) so sessions survive restarts.
 */
export async function resolveSessionSecret(
  config: Pick<Config, 'sessionSecret' | 'dataDir'>,
): Promise<Buffer> {
  if (config.sessionSecret) return Buffer.from(config.sessionSecret, 'utf8')
  const file = join(config.dataDir, 'secret.key')
  await mkdir(config.dataDir, { recursive: true })
  // Two processes starting together keep the first key.
  await writeOnce(file, `${randomBytes(32).toString('base64url')}\n`)
  const stored = (await readFile(file, 'utf8')).trim()
  if (stored.length < 32) throw new Error(`${file} holds no usable secret; delete it to make a new one`)
  return Buffer.from(stored, 'utf8')
}
