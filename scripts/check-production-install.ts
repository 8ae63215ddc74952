// `npm run test:production` (after `npm run build`): the README's production install, done for real in a
// temporary directory: the repository's files with the build's dist/ and dist-server/, `npm ci --omit=dev`
// (no vite, no esbuild, no browser packages), then
// - `node dist-server/server.mjs`, on a new data directory, answers readiness (with its version), liveness, the SPA
//   and the metrics, writes a sign-in mail from its own catalogs, writes a backup while it runs
//   (`npm run backup`), which `npm run restore` puts in another data directory, and exits 0 on SIGTERM;
// - `npm start` runs the build it was given without building, and SIGTERM to npm's pid alone stops the whole
//   process tree (no orphan keeps the port or the database lock).
// Prints the size of the production node_modules. Exits 1 on the first failure.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { freePort } from '../tests/server/processes.ts'

const METRICS_TOKEN = 'production-check-metrics-token-0123456789'

function check(condition: unknown, message: string): asserts condition {
  if (!condition) {
    console.error(`Production install check failed: ${message}`)
    process.exit(1)
  }
}

for (const built of ['dist/index.html', 'dist-server/server.mjs']) {
  check(existsSync(built), `${built} is missing: run npm run build first`)
}

const work = mkdtempSync(join(tmpdir(), 'trousseau-production-'))
const app = join(work, 'app')
process.on('exit', () => rmSync(work, { recursive: true, force: true }))

// The repository's files (a checkout of this commit, with what is changed in the working tree) and the build.
const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
  encoding: 'utf8',
})
  .split('\0')
  .filter((file) => file !== '' && existsSync(file))
for (const file of files) {
  mkdirSync(join(app, dirname(file)), { recursive: true })
  cpSync(file, join(app, file))
}
for (const dir of ['dist', 'dist-server']) cpSync(dir, join(app, dir), { recursive: true })

const install = spawnSync('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], {
  cwd: app,
  stdio: 'inherit',
})
check(install.status === 0, `npm ci --omit=dev exited with ${install.status}`)
check(!existsSync(join(app, 'node_modules/vite')), 'vite is installed by npm ci --omit=dev')
check(!existsSync(join(app, 'node_modules/react')), 'react is installed by npm ci --omit=dev')
const size = execFileSync('du', ['-sk', join(app, 'node_modules')], { encoding: 'utf8' }).split('\t')[0]
const packages = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
  cwd: app,
  encoding: 'utf8',
})
console.log(
  `Production install: ${packages.trim().split('\n').length - 1} packages, ${(Number(size) / 1024).toFixed(1)} MiB of node_modules`,
)

type Running = { child: ChildProcess; output: () => string; exited: Promise<number | null>; url: string }

async function start(command: string, args: string[], env: Record<string, string>): Promise<Running> {
  const port = await freePort()
  const child = spawn(command, args, {
    cwd: app,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      METRICS_TOKEN,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const started = Date.now()
  while (!output.includes('Trousseau listening')) {
    check(Date.now() - started < 120_000 && child.exitCode === null, `${command} did not start:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { child, output: () => output, exited, url: `http://127.0.0.1:${port}` }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}

const dataDir = join(work, 'data')
const server = await start(process.execPath, ['dist-server/server.mjs'], { DATA_DIR: dataDir })
const ready = await fetch(`${server.url}/api/health`)
check(ready.status === 200, `readiness answered ${ready.status}`)
const health = (await ready.json()) as { version?: unknown; database: { driver: string; state: string } }
check(
  health.database.state === 'up' && health.database.driver === 'pglite',
  'the embedded database is not up',
)
check(typeof health.version === 'string' && health.version !== '', 'readiness gave no version (package.json)')
check((await fetch(`${server.url}/api/health/live`)).status === 200, 'liveness did not answer 200')
const page = await fetch(`${server.url}/`, { headers: { 'accept-language': 'fr' } })
check(page.status === 200 && (await page.text()).includes('<html'), `the SPA answered ${page.status}`)
const metrics = await fetch(`${server.url}/api/metrics`, {
  headers: { authorization: `Bearer ${METRICS_TOKEN}` },
})
const scraped = await metrics.text()
check(
  metrics.status === 200 &&
    scraped.includes('trousseau_http_requests_total{method="GET",route="/api/health"'),
  `metrics answered ${metrics.status}:\n${scraped}`,
)
// The bundle finds the server's catalogs from where it is: a sign-in mail asked in English is written, in
// English, to the outbox (no SMTP_URL here).
const port = new URL(server.url).port
const asked = await fetch(`${server.url}/api/email-tokens`, {
  method: 'POST',
  headers: { origin: `http://localhost:${port}`, 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'bundle@example.test', locale: 'en' }),
})
check(asked.status === 202, `the sign-in mail request answered ${asked.status}`)
const outbox = join(dataDir, 'outbox')
const mails = existsSync(outbox) ? readdirSync(outbox) : []
check(mails.length === 1, `the outbox holds ${mails.length} mails, not 1`)
const mail = readFileSync(join(outbox, mails[0] as string), 'utf8')
check(mail.includes('Subject: Your Trousseau sign-in'), `the sign-in mail is not the English one:\n${mail}`)

const backupFile = join(work, 'running.pglite.tar.gz')
const backup = spawnSync('npm', ['run', '--silent', 'backup', '--', '--out', backupFile], {
  cwd: app,
  env: { ...process.env, DATA_DIR: dataDir },
  encoding: 'utf8',
})
check(backup.status === 0, `npm run backup failed:\n${backup.stdout}${backup.stderr}`)
server.child.kill('SIGTERM')
check((await server.exited) === 0, `the server exited with another code than 0:\n${server.output()}`)
// Its log lines are written asynchronously: read once it has exited.
check(server.output().includes('backup written'), 'the running server did not write the backup')

const restore = spawnSync('npm', ['run', '--silent', 'restore', '--', backupFile], {
  cwd: app,
  env: { ...process.env, DATA_DIR: join(work, 'restored') },
  encoding: 'utf8',
})
check(restore.status === 0, `npm run restore failed:\n${restore.stdout}${restore.stderr}`)

// `npm start` as a supervisor runs it: SIGTERM to npm's own pid, then nothing of its process group may remain.
const viaNpm = await start('npm', ['start'], { DATA_DIR: join(work, 'restored') })
check(!viaNpm.output().includes('Building'), `npm start tried to build:\n${viaNpm.output()}`)
const restoredReady = await fetch(`${viaNpm.url}/api/health`)
check(restoredReady.status === 200, `readiness on the restored database answered ${restoredReady.status}`)
const pgid = viaNpm.child.pid as number
viaNpm.child.kill('SIGTERM')
const code = await viaNpm.exited
for (let i = 0; i < 100 && groupAlive(pgid); i += 1) await new Promise((resolve) => setTimeout(resolve, 50))
check(!groupAlive(pgid), `processes of npm start are still running after npm exited (${code})`)
check(code === 0, `npm start exited with ${code}:\n${viaNpm.output()}`)
check(viaNpm.output().includes('Trousseau stopped'), `the server did not stop cleanly:\n${viaNpm.output()}`)
console.log(
  'Production install check passed: start, readiness, metrics, backup, restore, npm start and SIGTERM.',
)
