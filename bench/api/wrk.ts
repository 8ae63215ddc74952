// One wrk run (Debian's `wrk`): 64 connections, 2 threads, its req/s and p99. POSTs carry a new
// Idempotency-Key per request (a Lua script), as a device's queued scans do.
import { execFile } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

export type Target = {
  name: string
  path: string
  method?: 'GET' | 'POST'
  body?: string
  headers?: Record<string, string>
}
export type Result = { requestsPerSecond: number; p99Ms: number; non2xx: number }

const FRESH_KEY = `
math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
local function uuid()
  return (string.gsub('xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx', '[xy]', function (c)
    return string.format('%x', c == 'x' and math.random(0, 15) or math.random(8, 11))
  end))
end
request = function()
  wrk.headers['Idempotency-Key'] = uuid()
  return wrk.format(nil, nil, nil, nil)
end
`

export async function ensureWrk(): Promise<void> {
  await promisify(execFile)('wrk', ['--version']).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new Error('wrk is missing: apt-get install -y wrk')
  })
}

function milliseconds(text: string): number {
  const [, value, unit] = text.match(/([\d.]+)(us|ms|s)/) ?? []
  const number = Number(value)
  return unit === 'us' ? number / 1000 : unit === 's' ? number * 1000 : number
}

export async function wrk(baseUrl: string, target: Target, seconds: number): Promise<Result> {
  const script = join(tmpdir(), `trousseau-wrk-${process.pid}.lua`)
  const method = target.method ?? 'GET'
  await writeFile(
    script,
    `wrk.method = "${method}"\n${target.body ? `wrk.body = ${JSON.stringify(target.body)}\n` : ''}${method === 'POST' ? FRESH_KEY : ''}`,
  )
  const headers = Object.entries(target.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`])
  const { stdout } = await promisify(execFile)(
    'wrk',
    ['-t2', '-c64', `-d${seconds}s`, '--latency', '-s', script, ...headers, `${baseUrl}${target.path}`],
    { maxBuffer: 1 << 20 },
  )
  const rate = stdout.match(/Requests\/sec:\s+([\d.]+)/)
  const p99 = stdout.match(/^\s+99%\s+(\S+)/m)
  if (!rate || !p99) throw new Error(`unreadable wrk output:\n${stdout}`)
  return {
    requestsPerSecond: Number(rate[1]),
    p99Ms: milliseconds(p99[1]!),
    non2xx: Number(stdout.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
  }
}
