import { execFile } from 'node:child_process'
import { generateKeyPairSync, randomUUID } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { and, eq, gt, sql } from 'drizzle-orm'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { describe, expect, it } from 'vitest'
import type { LedgerPublicKey, SignedHeadView } from '../../../contract/activity.ts'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import {
  authorize,
  dates,
  scheduledTransfer,
  toMember,
  transferWorld,
} from '../../../tests/server/transfers.ts'
import { organizationEventCounters, organizationEvents, users } from '../../db/schema.ts'
import { fromRoot } from '../../paths.ts'
import { appendEvent } from '../events/append.ts'
import { checkActivityExport } from './export-check.ts'
import { ACTIVITY_CSV_COLUMNS } from './export-columns.ts'
import { headSignedBy, parseSignedHead, publicKeyFrom, type SignedHead } from './signed-head.ts'

const t = setupTestAppAtEpoch({ clearMail: true })

const publicKey = async () => {
  const response = await t.get('/api/activity/public-key', { origin: null })
  expect(response.status).toBe(200)
  return publicKeyFrom(((await response.json()) as LedgerPublicKey).publicKey)
}
const headOf = async (cookie: string): Promise<SignedHead> =>
  parseSignedHead(((await (await t.get('/api/activity/head', { cookie })).json()) as SignedHeadView).token)!
const exportOf = async (cookie: string, query = '') =>
  (await t.get(`/api/activity/export${query}`, { cookie })).text()
const rowsOf = (organizationId: string) =>
  t.db
    .select()
    .from(organizationEvents)
    .where(eq(organizationEvents.organizationId, organizationId))
    .orderBy(organizationEvents.seq)

/**
 * An organization with a log of every shape the digest covers: entries the services wrote (transfers, one
 * cancelled), and ones written in SQL as a scan batch writes them: an instant to the microsecond, a device time
 * from an offline queue, several ids, a payload with accents, a line break, a quote and a number `jsonb` keeps
 * as written (1.50).
 */
async function loggedOrganization() {
  const world = await transferWorld(t)
  const { admin, contact, keychain, organization, tag } = world
  const lent = await (await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))).json()
  await t.delete(`/api/transfers/${lent.id}`, { cookie: admin.cookie })
  await t.db.execute(sql`select append_organization_event(${organization.id}::uuid, 'keychain.updated',
    ${admin.profile.id}::uuid, '2030-01-15 09:58:00.000001+00', '2030-01-15 10:00:00.123456+00', true,
    ${`{${keychain.id},${randomUUID()}}`}::uuid[], ${`{${tag.id}}`}::uuid[], '{}'::uuid[],
    ${JSON.stringify({ name: 'Clés « cave »\n"B"', price: 1.5 }).replace('1.5', '1.50')}::jsonb)`)
  await t.db.execute(sql`select append_organization_event(${organization.id}::uuid, 'keychain.updated',
    null, null, '2030-01-15 10:00:01+00', false, '{}'::uuid[], '{}'::uuid[], '{}'::uuid[], '{}'::jsonb)`)
  await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id), '2030-01-20', '2030-01-22'))
  const count = (await rowsOf(organization.id)).length
  expect(count).toBeGreaterThanOrEqual(6)
  return { ...world, count }
}

type Row = Record<(typeof ACTIVITY_CSV_COLUMNS)[number], string>
const recordsOf = (csv: string) => parse(csv, { columns: true }) as Row[]
const csvOf = (records: Row[]) =>
  stringify(records, { header: true, columns: [...ACTIVITY_CSV_COLUMNS], record_delimiter: 'windows' })

/** A database writer's rewrite: every hash from entry `from` on recomputed from the rows as they now are. */
async function rechain(organizationId: string, from: number) {
  const rows = await rowsOf(organizationId)
  for (const { seq } of rows.filter((row) => row.seq >= from)) {
    await t.db.execute(sql`update organization_events as e set hash = organization_event_digest(
        coalesce((select p.hash from organization_events p
          where p.organization_id = e.organization_id and p.seq = e.seq - 1), ''),
        e.organization_id, e.seq, e.kind, e.actor_id, e.client_time, e.server_time, e.from_queue,
        e.keychain_ids, e.tag_ids, e.transfer_ids, e.payload)
      where e.organization_id = ${organizationId} and e.seq = ${seq}`)
  }
}

const verification = async (cookie: string) =>
  (await (await t.get('/api/activity/verification', { cookie })).json()) as { valid: boolean }

describe('the ledger’s signed head', () => {
  it('names the selected organization’s last entry, signed by the key the server publishes', async () => {
    const { admin, organization, count } = await loggedOrganization()
    const response = await t.get('/api/activity/head', { cookie: admin.cookie })
    expect(response.status).toBe(200)
    const answer = (await response.json()) as SignedHeadView
    const last = (await rowsOf(organization.id)).at(-1)!
    expect(answer).toMatchObject({
      organizationId: organization.id,
      seq: count,
      hash: last.hash,
      signedAt: t.clock.now().toISOString(),
    })
    const key = await publicKey()
    const head = parseSignedHead(answer.token)!
    expect(head).toEqual(answer)
    expect(headSignedBy(head, key)).toBe(true)
    // The PEM is the same key; another key, or a head changed by one digit, does not check.
    const pem = ((await (await t.get('/api/activity/public-key')).json()) as LedgerPublicKey).pem
    expect(headSignedBy(head, publicKeyFrom(pem))).toBe(true)
    expect(headSignedBy(head, generateKeyPairSync('ed25519').publicKey)).toBe(false)
    expect(headSignedBy({ ...head, seq: head.seq - 1 }, key)).toBe(false)

    // An empty log has a head too; another organization's admin gets theirs, never this one.
    const other = await organizationWithAdmin(t, 'Autre')
    const empty = await headOf(other.admin.cookie)
    expect(empty).toMatchObject({ organizationId: other.organization.id, seq: 0, hash: '' })
    expect(headSignedBy(empty, key)).toBe(true)
  })

  it('is for those who read the activity log; its public key for anyone', async () => {
    const { member, contact } = await transferWorld(t)
    expect((await t.get('/api/activity/head', { cookie: member.cookie })).status).toBe(403)
    expect((await t.get('/api/activity/head', { cookie: contact.cookie })).status).toBe(403)
    expect((await t.get('/api/activity/head')).status).toBe(401)
    expect((await t.get('/api/activity/public-key')).status).toBe(200)
  })
})

describe('an activity export, checked without the database', () => {
  it('holds from entry 1 to its signed head, and no longer once a cell is changed or a row removed', async () => {
    const { admin } = await loggedOrganization()
    const key = await publicKey()
    const csv = await exportOf(admin.cookie)
    expect(checkActivityExport(csv, key)).toMatchObject({ problems: [] })
    const records = recordsOf(csv)
    const check = (changed: Row[]) => checkActivityExport(csvOf(changed), key).problems
    const edited = (index: number, column: keyof Row, value: string) =>
      records.map((record, n) => (n === index ? { ...record, [column]: value } : record))
    // Newest first: the signed head last, entry 1 before it.
    const middle = Math.floor((records.length - 1) / 2)
    expect(check(records)).toEqual([])
    expect(check(edited(middle, 'details', '{"name": "Grenier"}'))).toHaveLength(1)
    expect(check(edited(middle, 'actor_id', ''))).toHaveLength(1)
    expect(check(edited(middle, 'kind', 'keychain.deleted'))).toHaveLength(1)
    expect(check(edited(middle, 'server_time', '2030-01-15T10:00:00.124Z'))).toHaveLength(1)
    // A hash changed to match its edited fields breaks at the next entry.
    expect(check(edited(middle, 'hash', '0'.repeat(64)))).toHaveLength(1)
    expect(check(records.filter((_, n) => n !== middle))[0]).toMatch(/are not in the export/)
    // The newest entry removed: the chain stops short of the signed head.
    expect(check(records.slice(1))[0]).toMatch(/before the signed head/)
    // A signed head edited, or checked with another key.
    const head = records.at(-1)!
    expect(
      check([...records.slice(0, -1), { ...head, details: head.details.replace(/seq=\d+/, 'seq=1') }]),
    ).toContain('the signed head is not signed by this public key')
    expect(checkActivityExport(csv, generateKeyPairSync('ed25519').publicKey).problems).toEqual([
      'the signed head is not signed by this public key',
    ])
    // A filtered view leaves entries out: it cannot be checked.
    const filtered = await exportOf(admin.cookie, '?kind=transfer.authorized')
    expect(checkActivityExport(filtered, key).problems[0]).toMatch(/are not in the export/)
  })

  it('checks out with `npm run verify:activity`, which fails once the file is changed', async () => {
    const { admin } = await loggedOrganization()
    const directory = await mkdtemp(join(tmpdir(), 'verify-activity-'))
    try {
      const csv = await exportOf(admin.cookie)
      const keyFile = join(directory, 'key.json')
      await writeFile(keyFile, await (await t.get('/api/activity/public-key')).text())
      const run = async (file: string, text: string, ...more: string[]) => {
        await writeFile(join(directory, file), text)
        const command = [
          fileURLToPath(fromRoot('scripts/verify-activity.ts')),
          join(directory, file),
          '--public-key',
          keyFile,
        ]
        return promisify(execFile)(process.execPath, [...command, ...more]).then(
          ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
          (error: { code: number; stdout: string; stderr: string }) => ({ ...error }),
        )
      }
      const good = await run('good.csv', csv)
      expect(good).toMatchObject({ code: 0, stderr: '' })
      expect(good.stdout).toContain('Verified')
      const bad = await run('bad.csv', csv.replace('Clés « cave »', 'Cles « cave »'))
      expect(bad.code).toBe(1)
      expect(bad.stdout).toMatch(/NOT VERIFIED: entry \d+ does not give its hash/)
    } finally {
      await rm(directory, { recursive: true, force: true })
    }
  }, 30_000)

  it('shows a log rewritten or cut since a signed head was published, though the database’s own check holds', async () => {
    const { admin, organization, count } = await loggedOrganization()
    const key = await publicKey()
    const published = await headOf(admin.cookie)
    expect(published.seq).toBe(count)
    const untouched = checkActivityExport(await exportOf(admin.cookie), key, [published])
    expect(untouched).toMatchObject({ problems: [], headsHeld: 1 })

    // Someone with write access to the database edits entry 2 and recomputes every hash after it.
    await t.db
      .update(organizationEvents)
      .set({ payload: { forged: true } })
      .where(and(eq(organizationEvents.organizationId, organization.id), eq(organizationEvents.seq, 2)))
    await rechain(organization.id, 2)
    expect((await verification(admin.cookie)).valid).toBe(true)
    const rewritten = checkActivityExport(await exportOf(admin.cookie), key, [published])
    expect(rewritten.problems).toEqual([
      `the head of entry ${count} signed at ${published.signedAt} is no longer on the chain: the log was rewritten since, at or before that entry`,
    ])
  })

  it('shows a log whose last entries were cut off since a signed head was published', async () => {
    const { admin, organization, count } = await loggedOrganization()
    const key = await publicKey()
    const published = await headOf(admin.cookie)
    await t.db
      .delete(organizationEvents)
      .where(
        and(eq(organizationEvents.organizationId, organization.id), gt(organizationEvents.seq, count - 2)),
      )
    await t.db
      .update(organizationEventCounters)
      .set({ lastSeq: count - 2 })
      .where(eq(organizationEventCounters.organizationId, organization.id))
    expect((await verification(admin.cookie)).valid).toBe(true)
    const cut = checkActivityExport(await exportOf(admin.cookie), key, [published])
    expect(cut.problems).toEqual([
      `the head of entry ${count} signed at ${published.signedAt} is past the export's last entry (${count - 2}): the log was cut since`,
    ])
  })
})

/** The text of every page of a PDF, read by pdf.js. */
async function pdfText(bytes: ArrayBuffer): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 })
    .promise
  const texts: string[] = []
  for (let n = 1; n <= document.numPages; n += 1) {
    const content = await (await document.getPage(n)).getTextContent()
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '))
  }
  await document.destroy()
  return texts.join(' ').replace(/\s+/g, ' ')
}

describe('a handover receipt', () => {
  it('carries the ledger’s signed head as of its own entry, downloaded and mailed', async () => {
    const w = await scheduledTransfer(t)
    const pickup = await t.post(`/api/transfers/${w.transfer.id}/pickups`, {
      cookie: w.contact.cookie,
      json: { acceptance: { typedName: 'Zoé Martin' } },
      headers: { 'idempotency-key': randomUUID() },
    })
    expect(pickup.status).toBe(201)
    const [entry] = (await rowsOf(w.organization.id)).filter((row) => row.kind === 'transfer.receipt_signed')
    const key = await publicKey()
    const headIn = (text: string) => {
      const token = /trousseau-ledger-head\/1 .*? signature=[A-Za-z0-9_-]{86}/.exec(text)?.[0]
      return token ? parseSignedHead(token) : null
    }
    const pdf = await t.get(`/api/transfers/${w.transfer.id}/receipt/pdf`, { cookie: w.admin.cookie })
    const text = await pdfText(await pdf.arrayBuffer())
    // In the recipient's language.
    expect(text).toContain(
      `Registre entrée ${entry!.seq} du journal d’activité, empreinte ${entry!.hash.slice(0, 16)}…`,
    )
    const head = headIn(text)
    expect(head).toMatchObject({ organizationId: w.organization.id, seq: entry!.seq, hash: entry!.hash })
    expect(headSignedBy(head!, key)).toBe(true)

    const mailed = t.mail.last(w.contact.email)!.attachments![0]!.content as Uint8Array
    const mailedHead = headIn(await pdfText(new Uint8Array(mailed).buffer))
    expect(mailedHead).toMatchObject({ seq: entry!.seq, hash: entry!.hash })
  })
})

describe('a user who did something in the ledger', () => {
  it('cannot be deleted, so the chain never loses the author it covers', async () => {
    const { admin, organization } = await organizationWithAdmin(t, 'Suppression')
    const author = await t.signIn(`author-${randomUUID()}@example.test`)
    await t.db.transaction((tx) =>
      appendEvent(tx, {
        organizationId: organization.id,
        kind: 'keychain.updated',
        actorId: author.profile.id,
        serverTime: t.clock.now(),
      }),
    )
    await expect(t.db.delete(users).where(eq(users.id, author.profile.id))).rejects.toThrow()
    expect((await rowsOf(organization.id)).map((row) => row.actorId)).toEqual([author.profile.id])
    expect(await verification(admin.cookie)).toMatchObject({ valid: true })
  })
})
