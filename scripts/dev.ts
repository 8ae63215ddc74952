// `npm run dev`: the API on port 3001 (restarted on change) and Vite on port 3000 proxying /api to it.
import { spawn } from 'node:child_process'

const children = [
  spawn(process.execPath, ['--watch-path=server', '--watch-path=contract', 'server/main.ts'], {
    stdio: 'inherit',
    env: { PORT: '3001', PUBLIC_URL: 'http://localhost:3000', NODE_ENV: 'development', ...process.env },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { stdio: 'inherit' }),
]
const stop = () => {
  for (const child of children) child.kill('SIGTERM')
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
for (const child of children)
  child.on('exit', (code) => {
    stop()
    process.exitCode = code ?? 0
  })
