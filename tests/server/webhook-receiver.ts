import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What the receiver does with one request: answer 500, never answer (a timeout), or accept with 204. */
export type Reply = 'fail' | 'hang' | 'accept'

type Received = { headers: IncomingHttpHeaders; body: string; reply: Reply }

/**
 * A real HTTP receiver on a loopback port (test helper). `script(eventId, attempt)` says how to answer the
 * attempt-th request (from 1) carrying that event id (after `delayMs`); every request is kept with its answer.
 */
export async function startReceiver(
  script: (eventId: string, attempt: number) => Reply,
  options: { delayMs?: number } = {},
) {
  const received: Received[] = []
  const hanging = new Set<ServerResponse>()
  const seen = new Map<string, number>()
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const eventId = String(request.headers['trousseau-event-id'] ?? '')
      const attempt = (seen.get(eventId) ?? 0) + 1
      seen.set(eventId, attempt)
      const reply = script(eventId, attempt)
      received.push({ headers: request.headers, body, reply })
      if (reply === 'hang') {
        hanging.add(response)
        return
      }
      const answer = () => response.writeHead(reply === 'accept' ? 204 : 500).end()
      if (options.delayMs) setTimeout(answer, options.delayMs)
      else answer()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** The bodies it accepted, parsed. */
    accepted: () => received.filter((entry) => entry.reply === 'accept'),
    async close() {
      for (const response of hanging) response.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
