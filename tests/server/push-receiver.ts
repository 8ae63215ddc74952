import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  type ECDH,
  hkdfSync,
  randomBytes,
  verify,
} from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A push message as the device would read it, and what the request carried. */
export type ReceivedPush = {
  path: string
  payload: unknown
  headers: IncomingMessage['headers']
  /** The VAPID token's claims, its signature checked against the key the request names. */
  vapid: { aud: string; sub: string; exp: number; publicKey: string }
  at: number
}

/**
 * A push service on the loopback, and the browser behind it: each device (`device()`) has its own P-256 key and
 * auth secret, as `PushManager.subscribe()` makes them; a message posted to its endpoint is decrypted as the
 * browser would (RFC 8291 / RFC 8188, aes128gcm) and its VAPID token (RFC 8292) checked. `answer` sets the status
 * the service answers (201 by default; 410 for a device that unsubscribed).
 */
export async function startPushReceiver() {
  const devices = new Map<string, ECDH & { auth: Buffer }>()
  const received: ReceivedPush[] = []
  const answers = new Map<string, number>()
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const path = request.url ?? '/'
      const device = devices.get(path)
      const status = answers.get(path) ?? (device ? 201 : 404)
      if (device && status < 300) {
        received.push({
          path,
          payload: JSON.parse(decrypt(Buffer.concat(chunks), device).toString('utf8')),
          headers: request.headers,
          vapid: checkVapid(String(request.headers.authorization ?? '')),
          at: Date.now(),
        })
      }
      response.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  let next = 0

  return {
    origin,
    received,
    /** A new device: what its browser's subscription would give to the server. */
    device() {
      const ecdh = Object.assign(createECDH('prime256v1'), { auth: randomBytes(16) })
      ecdh.generateKeys()
      const path = `/push/${++next}`
      devices.set(path, ecdh)
      return {
        endpoint: `${origin}${path}`,
        path,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: ecdh.auth.toString('base64url') },
      }
    },
    answer(path: string, status: number) {
      answers.set(path, status)
    },
    /** Waits for `count` messages to `path`, or fails after `timeoutMs`. */
    async waitFor(path: string, count = 1, timeoutMs = 5000): Promise<ReceivedPush[]> {
      const until = Date.now() + timeoutMs
      for (;;) {
        const mine = received.filter((each) => each.path === path)
        if (mine.length >= count) return mine
        if (Date.now() > until) throw new Error(`${mine.length} push messages to ${path}, expected ${count}`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const info = (label: string, context = Buffer.alloc(0)) => Buffer.concat([Buffer.from(label), context])

/** RFC 8291: the content key and nonce from the device's key and secret, then RFC 8188's one record. */
function decrypt(body: Buffer, device: ECDH & { auth: Buffer }): Buffer {
  const salt = body.subarray(0, 16)
  const recordSize = body.readUInt32BE(16)
  const idLength = body[20]!
  const senderKey = body.subarray(21, 21 + idLength)
  const record = body.subarray(21 + idLength)
  if (record.length > recordSize) throw new Error('One record expected')
  const shared = device.computeSecret(senderKey)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.getPublicKey(), senderKey])
  const ikm = Buffer.from(hkdfSync('sha256', shared, device.auth, keyInfo, 32))
  const key = Buffer.from(hkdfSync('sha256', ikm, salt, info('Content-Encoding: aes128gcm\0'), 16))
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, info('Content-Encoding: nonce\0'), 12))
  const decipher = createDecipheriv('aes-128-gcm', key, nonce)
  decipher.setAuthTag(record.subarray(record.length - 16))
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()])
  // The last record ends with the delimiter 0x02, then padding zeros.
  const end = plain.lastIndexOf(2)
  if (end < 0 || plain.subarray(end + 1).some((byte) => byte !== 0)) throw new Error('Bad padding')
  return plain.subarray(0, end)
}

/** `vapid t=<jwt>, k=<key>`: the token's ES256 signature checked with the key; its claims. */
function checkVapid(authorization: string): ReceivedPush['vapid'] {
  const match = /^vapid t=([^,]+), k=([A-Za-z0-9_-]+)$/.exec(authorization)
  if (!match) throw new Error(`Not a VAPID authorization: ${authorization}`)
  const [, token, key] = match as unknown as [string, string, string]
  const [header, claims, signature] = token.split('.') as [string, string, string]
  const raw = Buffer.from(key, 'base64url')
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  })
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  )
  if (!signed) throw new Error('The VAPID signature does not match its key')
  const parsed = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as Omit<
    ReceivedPush['vapid'],
    'publicKey'
  >
  return { ...parsed, publicKey: key }
}
