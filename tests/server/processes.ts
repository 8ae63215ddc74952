import { type ChildProcess, spawn } from 'node:child_process'
import { randomInt } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'

/**
 * Test helpers for real servers: a free port for any server a test or benchmark starts, and server processes with
 * an nginx in front of them (server/multi-process.test.ts).
 */

/**
 * A port free now for a server a test starts a moment later. Drawn below Linux's ephemeral range (32768 and
 * up, where `listen(0)` also draws): a port from that range can be taken before the server listens by any
 * outgoing connection of another test (to PostgreSQL, SMTP, a browser's), which failed a browser file with
 * EADDRINUSE once its servers ran on PostgreSQL.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + randomInt(12_000)
    if (await listenable(port)) return port
  }
}

async function listenable(port: number): Promise<boolean> {
  const probe = createServer()
  const listening = await new Promise<boolean>((resolve) => {
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => resolve(true))
  })
  if (listening) await new Promise((resolve) => probe.close(resolve))
  return listening
}

export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: () => string,
  timeoutMs = 40_000,
) {
  const started = Date.now()
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting: ${what()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export type Child = {
  process: ChildProcess
  output: () => string
  exited: Promise<number | null>
  stop: () => Promise<void>
}

function track(child: ChildProcess): Child {
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return {
    process: child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}

/**
 * Resolves once `ready` says `child` is up; throws with its output when it exits first or never gets there, and
 * then stops it: a process that did not start is not left running behind the failed test.
 */
async function started(child: Child, name: string, ready: () => boolean | Promise<boolean>) {
  try {
    await waitFor(
      async () => child.process.exitCode !== null || (await ready()),
      () => `${name} did not start:\n${child.output()}`,
    )
  } catch (error) {
    await child.stop()
    throw error
  }
  if (child.process.exitCode !== null) throw new Error(`${name} exited at start:\n${child.output()}`)
}

const mainFile = new URL('../../server/main.ts', import.meta.url).pathname

/** `node server/main.ts` with the given environment, resolved once it logs that it listens. */
export async function startServer(env: Record<string, string>): Promise<Child> {
  const child = track(
    spawn(process.execPath, [mainFile], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'development',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  )
  await started(child, 'server', () => child.output().includes('Trousseau listening'))
  return child
}

/** Debian's nginx, wherever it is; CI installs it (.ci/run). Missing, the test fails: it never skips. */
function nginxBinary(): string {
  for (const path of ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx']) {
    if (existsSync(path)) return path
  }
  throw new Error('nginx is not installed: `apt-get install -y nginx` (.ci/run installs it when missing)')
}

/**
 * nginx in the foreground (one process, `master_process off`: it runs as the calling user, no worker switching
 * to nobody) with its pid, logs and temp files in `dir`, listening on loopback `port` and sending requests to
 * the upstream ports in turn (round robin). The access log names the upstream that answered each request.
 */
export async function startNginx(
  dir: string,
  port: number,
  upstreams: number[],
): Promise<Child & { accessLog: string }> {
  await mkdir(join(dir, 'temp'), { recursive: true })
  const accessLog = join(dir, 'access.log')
  const conf = join(dir, 'nginx.conf')
  await writeFile(
    conf,
    `daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
  log_format upstream '$request_method $request_uri $status $upstream_addr';
  access_log ${accessLog} upstream;
  client_body_temp_path ${join(dir, 'temp', 'body')};
  proxy_temp_path ${join(dir, 'temp', 'proxy')};
  fastcgi_temp_path ${join(dir, 'temp', 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'temp', 'uwsgi')};
  scgi_temp_path ${join(dir, 'temp', 'scgi')};
  upstream trousseau {
${upstreams.map((upstream) => `    server 127.0.0.1:${upstream};`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://trousseau;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}
`,
  )
  const child = track(
    spawn(nginxBinary(), ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  )
  await started(child, 'nginx', async () => {
    try {
      await fetch(`http://127.0.0.1:${port}/api/health`)
      return true
    } catch {
      return false
    }
  })
  return { ...child, accessLog }
}
