import { defineConfig } from '@lingui/conf'
import { formatter } from '@lingui/format-po'

export default defineConfig({
  sourceLocale: 'en',
  locales: ['fr', 'en'],
  catalogs: [
    { path: '<rootDir>/locales/{locale}/messages', include: ['src'], exclude: ['**/*.test.*'] },
    {
      path: '<rootDir>/locales/{locale}/server',
      include: ['server'],
      exclude: ['**/*.test.*', 'server/test'],
    },
  ],
  format: formatter({ lineNumbers: false }),
})
