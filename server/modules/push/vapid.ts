import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as v from 'valibot'
import webpush from 'web-push'
import type { Config } from '../../config.ts'
import { writeOnce } from '../../write-once.ts'

export type VapidKeys = { publicKey: string; privateKey: string }

const StoredKeysSchema = v.object({
  publicKey: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{87}$/)),
  privateKey: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/)),
})

const resolved = new Map<string, Promise<VapidKeys>>()

/**
 * The server's VAPID key pair: from the environment, else made once in `$DATA_DIR/vapid.json` (mode 0600), so
 * every device's subscription (made against the public key) keeps working across restarts and processes.
 */
export function vapidKeys(config: Pick<Config, 'vapidKeys' | 'dataDir'>): Promise<VapidKeys> {
  if (config.vapidKeys) return Promise.resolve(config.vapidKeys)
  let keys = resolved.get(config.dataDir)
  if (!keys) {
    keys = storedKeys(config.dataDir)
    resolved.set(config.dataDir, keys)
    keys.catch(() => resolved.delete(config.dataDir))
  }
  return keys
}

async function storedKeys(dataDir: string): Promise<VapidKeys> {
  const file = join(dataDir, 'vapid.json')
  await mkdir(dataDir, { recursive: true })
  // Two processes starting together keep the first pair.
  await writeOnce(file, `${JSON.stringify(webpush.generateVAPIDKeys())}\n`)
  // Stryker disable next-line StringLiteral: without the encoding readFile gives a Buffer, which JSON.parse reads as UTF-8 too
  const parsed = v.safeParse(StoredKeysSchema, JSON.parse(await readFile(file, 'utf8')))
  if (!parsed.success) throw new Error(`${file} holds no usable VAPID key pair; delete it to make a new one`)
  return parsed.output
}
