import { loadConfig } from './server/config.ts'
import { createLogger } from './server/logger.ts'
import { startServer } from './server/main.ts'
import { seedOrganization } from './bench/sync/seed.ts'
const config = loadConfig({ ...process.env, PORT: '39200', HOST: '127.0.0.1', NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:39200', DATA_DIR: '/tmp/profdata', STATIC_DIR: '/work/main/dist', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', SESSION_SECRET: 'x'.repeat(40) })
const server = await startServer(config, createLogger(config.logLevel))
const org = await seedOrganization(server.deps, 'PF', { tags: 3000, keychains: 1000, transfers: 10 })
const rows = (await server.deps.database.db.execute(`select id from keychains where organization_id = '${org.organizationId}' limit 1` as never)) as unknown as { rows: { id: string }[] }
console.log(JSON.stringify({ cookie: `session=${org.fieldSession}`, keychain: rows.rows[0]!.id, code: org.codeOf(5) }))
process.on('SIGINT', async () => { await server.close(); process.exit(0) })
