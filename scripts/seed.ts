// Fills the configured database with a demo organization: `node scripts/seed.ts` (same environment as the
// server: DATABASE_URL, or the embedded PGlite database in $DATA_DIR). Safe to run twice.
import { systemClock } from '../server/clock.ts'
import { ConfigError, loadConfig } from '../server/config.ts'
import { openDatabase } from '../server/db/client.ts'
import {
  DEMO_BOARD,
  DEMO_HOMED_KEYCHAINS,
  DEMO_MEMBERS,
  DEMO_ORGANIZATION_NAME,
  seedDemo,
} from '../server/seed/demo.ts'

async function main() {
  // Operators play no part in the demo: a bad OPERATOR_EMAILS must not stop the seed.
  const config = loadConfig({ ...process.env, OPERATOR_EMAILS: undefined })
  const database = await openDatabase(config)
  try {
    await database.migrate()
    const report = await seedDemo({ database, clock: systemClock })
    const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/pglite`
    console.log(
      report.created
        ? `Created "${DEMO_ORGANIZATION_NAME}" in ${where}: ${DEMO_MEMBERS.length} members, ${report.keychains} keychains with keys, ${report.tags} tags (${report.keychains} on keys, ${report.tags - report.keychains} free), their DELIVERED order, a yearly Pro subscription, ${report.transfers} transfers (one SCHEDULED to the contact, one TRANSFERRED to the member) and key board "${DEMO_BOARD.board}" (${DEMO_BOARD.hooks} hooks, ${DEMO_HOMED_KEYCHAINS} keychains live there).`
        : report.orders > 0 || report.transfers > 0 || report.places > 0
          ? `"${DEMO_ORGANIZATION_NAME}" was already in ${where}: added ${report.orders} orders (its DELIVERED tag order and a yearly Pro subscription), ${report.transfers} transfers and ${report.places} places.`
          : `"${DEMO_ORGANIZATION_NAME}" is already in ${where}: nothing to do.`,
    )
    console.log(
      'Sign in with one of these addresses (the link and code go to the outbox or your SMTP server):',
    )
    for (const member of DEMO_MEMBERS) console.log(`  ${member.role.padEnd(8)} ${member.email}`)
  } finally {
    await database.close()
  }
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error)
  process.stderr.write(`Seed failed: ${message}\n`)
  process.exit(1)
})
