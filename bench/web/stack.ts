// The thing measured: the production build served by the real server (PGlite in a temp folder) with the demo
// organization, and a signed-in session of the demo admin. And the reference: a bare static page.
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../server/config.ts'
import { createLogger } from '../../server/logger.ts'
import { startServer } from '../../server/main.ts'
import {
  DEMO_MEMBERS,
  DEMO_ORGANIZATION_ID,
  DEMO_ORGANIZATION_NAME,
  seedDemo,
} from '../../server/seed/demo.ts'
import { productionEnv } from '../../tests/e2e/harness.ts'
import { SIGN_IN_MAIL, signInCodeOf, startMailbox } from '../../tests/e2e/mailbox.ts'
import { freePort } from '../../tests/server/processes.ts'

export type Stack = {
  baseUrl: string
  /** `Cookie` header value of the demo admin's session. */
  cookie: string
  adminEmail: string
  stop(): Promise<void>
}

/** `name=value; name2=value2` from the `Set-Cookie` headers of a response. */
function cookieHeaderOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!.trim())
    .filter((pair) => pair.includes('=') && !pair.endsWith('='))
    .join('; ')
}

async function expectStatus(response: Response, expected: number, what: string): Promise<void> {
  if (response.status !== expected) {
    throw new Error(`${what}: HTTP ${response.status} (expected ${expected}): ${await response.text()}`)
  }
}

export async function startStack(root: string): Promise<Stack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'trousseau-bench-web-'))
  const cleanups: Array<() => Promise<void>> = [() => rm(dataDir, { recursive: true, force: true })]
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
  }
  try {
    const mailbox = await startMailbox()
    cleanups.push(mailbox.close)
    const port = await freePort()
    const config = loadConfig(
      productionEnv({ port, dataDir, smtpUrl: mailbox.url, staticDir: join(root, 'dist') }),
    )
    const server = await startServer(config, createLogger('warn'))
    cleanups.push(server.close)
    const baseUrl = server.url.replace('127.0.0.1', 'localhost')

    // The demo seed (npm run seed), against the running server's own database.
    const report = await seedDemo({ database: server.deps.database, clock: server.deps.clock })
    if (!report.created) throw new Error(`"${DEMO_ORGANIZATION_NAME}" already existed in a fresh database`)

    // Sign in as the demo admin through the real API, as the sign-in page does.
    const adminEmail = DEMO_MEMBERS.find((member) => member.role === 'ADMIN')!.email
    const headers = { Origin: baseUrl, 'Content-Type': 'application/json' }
    const already = mailbox.received.length
    await expectStatus(
      await fetch(`${baseUrl}/api/email-tokens`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: adminEmail }),
      }),
      202,
      'POST /api/email-tokens',
    )
    const code = signInCodeOf(await mailbox.nextMailTo(adminEmail, already, 10_000, SIGN_IN_MAIL))
    const signedIn = await fetch(`${baseUrl}/api/sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: adminEmail, code }),
    })
    await expectStatus(signedIn, 201, 'POST /api/sessions')
    const cookie = cookieHeaderOf(signedIn)
    if (!cookie) throw new Error('POST /api/sessions set no cookie')

    // /app shows the selected organization: make sure it is the demo one.
    const withSession = { ...headers, Cookie: cookie }
    const current = await fetch(`${baseUrl}/api/organizations/default`, { headers: withSession })
    await expectStatus(current, 200, 'GET /api/organizations/default')
    const { id } = (await current.json()) as { id: string | null }
    if (id !== DEMO_ORGANIZATION_ID) {
      await expectStatus(
        await fetch(`${baseUrl}/api/organizations/default`, {
          method: 'PATCH',
          headers: withSession,
          body: JSON.stringify({ id: DEMO_ORGANIZATION_ID }),
        }),
        200,
        'PATCH /api/organizations/default',
      )
    }
    return { baseUrl, cookie, adminEmail, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** What the machine allows: a heading and a paragraph, no script, no style sheet, no image. */
const REFERENCE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="Reference page of the web benchmark">
<title>Reference</title>
</head>
<body>
<main>
<h1>Reference page</h1>
<p>A static page with a heading and a paragraph, served by a bare node:http server: the best score this machine allows.</p>
</main>
</body>
</html>
`

export type ReferenceServer = { url: string; stop(): Promise<void> }

export async function startReference(): Promise<ReferenceServer> {
  const body = Buffer.from(REFERENCE_HTML, 'utf8')
  const server = createServer((request, response) => {
    if (request.url !== '/') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found')
      return
    }
    response
      .writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Length': body.length,
        'Cache-Control': 'no-cache',
      })
      .end(request.method === 'HEAD' ? undefined : body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://localhost:${port}/`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
