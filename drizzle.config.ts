import { defineConfig } from 'drizzle-kit'

// Only used by `drizzle-kit generate`: migrations are applied by the server itself at start-up.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
})
