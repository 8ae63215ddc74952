// The server's import graph has a direction: no cycle between its parts (each folder of server/modules/, each
// other folder of server/, each file at its top), type-only imports included, which biome's noImportCycles
// reads file by file only. Test files are left out (the test helpers, which import the whole app, live in tests/server/).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Every relative specifier a file imports or re-exports: `import type`, `export … from`, `import('…')` too. */
const SPECIFIERS =
  /(?:^|[\s;}])(?:import|export)\s*(?:type\s+)?(?:[\w*{}\s,$]*?\s*from\s*)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm

function importsOf(text: string): string[] {
  return [...text.matchAll(SPECIFIERS)].map((match) => (match[1] ?? match[2])!)
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** The part of the server a path belongs to: `modules/<name>`, another top folder, or a top file. */
function partOf(path: string): string {
  const [first, second] = path.split(sep)
  return first === 'modules' && second ? `modules/${second}` : first!
}

/** The graph of the server under `base` (`<base>/server`): its parts, or its files with `byFile`. */
function serverGraph(base: string, byFile = false): Map<string, Set<string>> {
  const server = join(base, 'server')
  const graph = new Map<string, Set<string>>()
  for (const file of sourceFiles(server)) {
    const from = relative(server, file)
    const node = byFile ? from : partOf(from)
    const edges = graph.get(node) ?? new Set<string>()
    graph.set(node, edges)
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      const target = relative(server, resolve(dirname(file), specifier))
      if (target.startsWith('..')) continue
      const to = byFile ? target : partOf(target)
      if (to !== node) edges.add(to)
    }
  }
  return graph
}

/** The strongly connected components of more than one node (Tarjan): each is a cycle, named by its nodes. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, next)
    low.set(node, next)
    next += 1
    stack.push(node)
    onStack.add(node)
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node)!, low.get(to)!))
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1) found.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

describe('the server import graph', () => {
  it('has no cycle between its parts (modules, folders, top files), type imports included', () => {
    const graph = serverGraph(root)
    expect(graph.get('modules/orders')).toContain('modules/tags')
    expect(cycles(graph)).toEqual([])
  })

  it('has no cycle between its files, type imports included', () => {
    expect(cycles(serverGraph(root, true))).toEqual([])
  })

  describe('finds a planted cycle', () => {
    function plant(files: Record<string, string>) {
      const base = mkdtempSync(join(tmpdir(), 'server-imports-'))
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(base, path)), { recursive: true })
        writeFileSync(join(base, path), text)
      }
      return base
    }
    const planted = (files: Record<string, string>, byFile = false) => {
      const base = plant(files)
      try {
        return cycles(serverGraph(base, byFile))
      } finally {
        rmSync(base, { recursive: true, force: true })
      }
    }

    it('between two modules through a type-only import, and none without it', () => {
      const lower = "export type Tag = { id: string }\nexport const tagCode = 'A'\n"
      const files = {
        'server/modules/orders/view.ts':
          "import { tagCode } from '../tags/codes.ts'\nexport const a = tagCode\n",
        'server/modules/tags/codes.ts': lower,
        'server/modules/tags/list.ts':
          "import type { Order } from '../orders/types.ts'\nexport type L = Order\n",
        'server/modules/orders/types.ts': 'export type Order = { id: string }\n',
      }
      expect(planted(files)).toEqual([['modules/orders', 'modules/tags']])
      expect(planted({ ...files, 'server/modules/tags/list.ts': 'export type L = string\n' })).toEqual([])
    })

    it('between a lower folder and a module, through a re-export or a dynamic import', () => {
      const files = {
        'server/jobs/handlers.ts': "export { noticeHandler } from '../modules/notices/job.ts'\n",
        'server/modules/notices/job.ts':
          "export const noticeHandler = () => import('../../jobs/queue.ts')\nexport const x = 1\n",
        'server/jobs/queue.ts': 'export const enqueue = 1\n',
      }
      expect(planted(files)).toEqual([['jobs', 'modules/notices']])
    })

    it('between two files of a folder through type-only imports', () => {
      const files = {
        'server/http/openapi.ts': "import type { E } from './openapi-errors.ts'\nexport type S = { e?: E }\n",
        'server/http/openapi-errors.ts': "import type { S } from './openapi.ts'\nexport type E = { s?: S }\n",
      }
      expect(planted(files, true)).toEqual([['http/openapi-errors.ts', 'http/openapi.ts']])
      expect(planted(files)).toEqual([])
    })

    it('leaves out test files', () => {
      const files = {
        'server/modules/tags/tags.test.ts': "import { a } from '../orders/view.ts'\nexport const b = a\n",
        'server/modules/orders/view.ts': "import { b } from '../tags/tags.test.ts'\nexport const a = b\n",
      }
      expect(planted(files)).toEqual([])
    })
  })
})
