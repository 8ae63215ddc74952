import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { type VapidKeys, vapidKeys } from './vapid.ts'

const made: string[] = []
afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })))
})

/** A fresh, empty data directory (the server's `$DATA_DIR`). */
async function dataDirectory(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vapid-test-'))
  made.push(dir)
  return dir
}

const stored = (dataDir: string) => ({ vapidKeys: null, dataDir })
const fileIn = (dataDir: string) => join(dataDir, 'vapid.json')
const refusal = (dataDir: string) =>
  new Error(`${fileIn(dataDir)} holds no usable VAPID key pair; delete it to make a new one`)

// Every base64url character class, each range's ends included: 'A' 'Z' 'a' 'z' '0' '9' '_' '-'.
const ALPHABET = 'AZaz09_-'
const validPair: VapidKeys = {
  publicKey: ALPHABET.repeat(11).slice(0, 87),
  privateKey: ALPHABET.repeat(6).slice(0, 43),
}

describe('the VAPID key pair', () => {
  it('is the environment’s when set, as is, and nothing is written to the data directory', async () => {
    const dataDir = await dataDirectory()
    const pair = { publicKey: 'not even checked', privateKey: 'as given' }
    expect(await vapidKeys({ vapidKeys: pair, dataDir })).toBe(pair)
    expect(await readdir(dataDir)).toEqual([])
  })

  it('is made once in a data directory that does not exist yet, as one JSON line readable by its owner only', async () => {
    const dataDir = join(await dataDirectory(), 'nested', 'data')
    const pair = await vapidKeys(stored(dataDir))
    expect(Object.keys(pair).sort()).toEqual(['privateKey', 'publicKey'])
    expect(pair.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/)
    expect(pair.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(await readFile(fileIn(dataDir), 'utf8')).toBe(`${JSON.stringify(pair)}\n`)
    expect((await stat(fileIn(dataDir))).mode & 0o777).toBe(0o600)
  })

  it('is read from the file once per process: later calls answer the same pair without reading it again', async () => {
    const dataDir = await dataDirectory()
    const first = await vapidKeys(stored(dataDir))
    await rm(fileIn(dataDir))
    expect(await vapidKeys(stored(dataDir))).toBe(first)
    expect(await readdir(dataDir)).toEqual([])
  })

  it('is kept by the next process on the same directory, which finds the file made and leaves it as it is', async () => {
    const dataDir = await dataDirectory()
    const first = await vapidKeys(stored(dataDir))
    const content = await readFile(fileIn(dataDir), 'utf8')
    vi.resetModules()
    const next = await import('./vapid.ts')
    expect(await next.vapidKeys(stored(dataDir))).toEqual(first)
    expect(await readFile(fileIn(dataDir), 'utf8')).toBe(content)
  })

  it('is the one another process wrote already, any base64url character allowed', async () => {
    const dataDir = await dataDirectory()
    await writeFile(fileIn(dataDir), JSON.stringify(validPair))
    expect(await vapidKeys(stored(dataDir))).toEqual(validPair)
    expect(JSON.parse(await readFile(fileIn(dataDir), 'utf8'))).toEqual(validPair)
  })

  it('is refused from a file with no usable pair, and read again once the file is fixed', async () => {
    const dataDir = await dataDirectory()
    await writeFile(fileIn(dataDir), JSON.stringify({ publicKey: 'x', privateKey: 'y' }))
    await expect(vapidKeys(stored(dataDir))).rejects.toEqual(refusal(dataDir))
    // The failure is not remembered: the operator fixes the file (or deletes it) and the next call reads it.
    await writeFile(fileIn(dataDir), JSON.stringify(validPair))
    expect(await vapidKeys(stored(dataDir))).toEqual(validPair)
  })

  it('is refused when a key is a character too short or too long, or holds a character outside base64url', async () => {
    const { publicKey, privateKey } = validPair
    const broken: Record<string, VapidKeys> = {
      'public key of 86': { publicKey: publicKey.slice(1), privateKey },
      'public key of 88': { publicKey: `${publicKey}A`, privateKey },
      'public key with + first': { publicKey: `+${publicKey.slice(1)}`, privateKey },
      'public key with = last': { publicKey: `${publicKey.slice(0, -1)}=`, privateKey },
      'public key with / inside': {
        publicKey: `${publicKey.slice(0, 40)}/${publicKey.slice(41)}`,
        privateKey,
      },
      'public key with + before all 87': { publicKey: `+${publicKey}`, privateKey },
      'public key with = after all 87': { publicKey: `${publicKey}=`, privateKey },
      'private key of 42': { publicKey, privateKey: privateKey.slice(1) },
      'private key of 44': { publicKey, privateKey: `${privateKey}A` },
      'private key with + first': { publicKey, privateKey: `+${privateKey.slice(1)}` },
      'private key with = last': { publicKey, privateKey: `${privateKey.slice(0, -1)}=` },
      'private key with / inside': {
        publicKey,
        privateKey: `${privateKey.slice(0, 20)}/${privateKey.slice(21)}`,
      },
      'private key with + before all 43': { publicKey, privateKey: `+${privateKey}` },
      'private key with = after all 43': { publicKey, privateKey: `${privateKey}=` },
    }
    for (const [name, pair] of Object.entries(broken)) {
      const dataDir = await dataDirectory()
      await writeFile(fileIn(dataDir), JSON.stringify(pair))
      await expect(vapidKeys(stored(dataDir)), name).rejects.toEqual(refusal(dataDir))
    }
  })

  it('lets a failure to write the file other than “it exists” through', async () => {
    // /proc/self is a directory that takes no new file: the write fails for real (ENOENT), not as EEXIST.
    await expect(vapidKeys(stored('/proc/self'))).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
