// `npm start`: builds the SPA and the bundled server when the build is missing or older than its sources, then
// runs the bundled server in production mode (migrations are applied at start-up).
import { spawn, spawnSync } from 'node:child_process'
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

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))))
}

const stale = !existsSync(BUILD_MARK) || Math.max(...SOURCES.map(newestMtime)) > statSync(BUILD_MARK).mtimeMs
if (stale) {
  console.log('Building the web app and the server…')
  const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const server = spawn(process.execPath, ['dist-server/server.mjs'], {
  stdio: 'inherit',
  env: serverProcessEnv(process.env),
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)))
