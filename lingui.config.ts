import { defineConfig } from '@lingui/conf'
import { formatter } from '@lingui/format-po'

const PUBLIC_SOURCES = [
  'src/prerendered',
  'src/features/landing',
  'src/features/auth',
  'src/ui/LanguageLink.tsx',
  'src/ui/toast',
  'src/ui/failure-toast.ts',
  'src/lib/error-message.ts',
  'src/lib/email-field.ts',
]

export default defineConfig({
  sourceLocale: 'en',
  locales: ['fr', 'en'],
  catalogs: [
    // The prerendered public pages load only this small catalog; the SPA loads it and `messages`.
    {
      path: '<rootDir>/locales/{locale}/public',
      include: PUBLIC_SOURCES,
      exclude: ['**/*.test.*'],
    },
    {
      path: '<rootDir>/locales/{locale}/messages',
      include: ['src'],
      exclude: ['**/*.test.*', ...PUBLIC_SOURCES],
    },
    {
      path: '<rootDir>/locales/{locale}/server',
      include: ['server'],
      exclude: ['**/*.test.*'],
    },
  ],
  format: formatter({ lineNumbers: false }),
})
