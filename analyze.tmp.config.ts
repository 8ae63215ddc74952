import { writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { defineConfig, mergeConfig } from 'vite'
import base from './vite.config.ts'

export default mergeConfig(base, defineConfig({
  build: { outDir: '/tmp/wt38-analyze-dist', emptyOutDir: true },
  plugins: [{
    name: 'analyze',
    generateBundle(_, bundle) {
      const rows: string[] = []
      for (const out of Object.values(bundle)) {
        if (out.type !== 'chunk') continue
        for (const [id, info] of Object.entries(out.modules)) {
          const code = (info as { code?: string | null }).code ?? ''
          rows.push(`${out.fileName}\t${(gzipSync(code).length / 1024).toFixed(2)}\t${id.replace('/work/wt38/', '')}`)
        }
      }
      writeFileSync('/tmp/wt38-modules.tsv', rows.join('\n'))
    },
  }],
}))
