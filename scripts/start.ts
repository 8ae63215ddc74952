// `npm start`: builds the SPA and the bundled server when the build is missing or older than its sources, then
// runs the bundled server in production mode (migrations are applied at start-up).
// On a production install (`npm ci --omit=dev`: no vite, no esbuild) it never builds: it runs the build it was
// given. A supervisor's SIGTERM reaches this process (package.json's `exec` keeps a shell out of the way): it is
// passed to the build or the server, and this process exits only after it, with its exit code, so stopping
// `npm start` leaves no orphan behind. `node dist-server/server.mjs` is the production command (README).
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { serverProcessEnv } from './server-process.ts'

const SOURCES = [
  'src',
  'locales',
  'public',
  'contract',
  'server',
  'scripts/build-server.ts',
  'scripts/server-process.ts',
  'index.html',
  'public.html',
  'vite.config.ts',
  'vite.plugins.ts',
  'vite.pwa.ts',
  'vite.ssr.config.ts',
  'scripts/prerender.ts',
  'scripts/precompress.ts',
  'scripts/vite-manifest.ts',
  'lingui.config.ts',
  'server/http/static-file.ts',
  'package.json',
  'package-lock.json',
]
// Written by the build's last steps (prerendering, then compression), so a half-finished build is redone.
const BUILD_MARK = 'dist/pages/fr/index.html.gz'
const SERVER_BUNDLE = 'dist-server/server.mjs'
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))))
}

let child: ChildProcess | undefined
let stopping = false
for (const signal of SIGNALS) {
  process.on(signal, () => {
    stopping = true
    child?.kill(signal)
  })
}

/** Runs a child with the signals passed on; resolves with its exit code (1 when a signal ended it). */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    child = spawn(command, args, { stdio: 'inherit', env })
    child.on('error', (error) => {
      console.error(`${command} failed to start: ${error.message}`)
      resolve(1)
    })
    child.on('exit', (code) => resolve(code ?? 1))
  })
}

const built = existsSync(BUILD_MARK) && existsSync(SERVER_BUNDLE)
const canBuild = existsSync('node_modules/vite') && existsSync('node_modules/esbuild')
if (canBuild && (!built || Math.max(...SOURCES.map(newestMtime)) > statSync(BUILD_MARK).mtimeMs)) {
  console.log('Building the web app and the server…')
  const status = await run('npm', ['run', '--silent', 'build'], process.env)
  if (status !== 0 || stopping) process.exit(stopping ? 0 : status)
} else if (!built) {
  console.error(
    `No build here (${BUILD_MARK}, ${SERVER_BUNDLE}) and no dev dependencies to make one: run \`npm run build\` ` +
      'where they are installed and copy dist/ and dist-server/ here (README, Operations).',
  )
  process.exit(1)
}

if (stopping) process.exit(0)
process.exit(await run(process.execPath, [SERVER_BUNDLE], serverProcessEnv(process.env)))
