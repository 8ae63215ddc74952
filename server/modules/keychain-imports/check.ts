import { and, eq, isNull, ne, or, sql } from 'drizzle-orm'
import * as v from 'valibot'
import { EmailSchema } from '../../../contract/auth.ts'
import {
  IMPORT_ERRORS_SHOWN,
  IMPORT_SAMPLE_SIZE,
  type ImportPreview,
  type ImportRowError,
  type ImportRowErrorCode,
  KEYCHAIN_CSV_COLUMNS,
  type KeychainCsvColumn,
} from '../../../contract/keychain-import.ts'
import { KeychainCreateSchema, type KeyType, KeyUpdateSchema } from '../../../contract/keychains.ts'
import { LOCATION_PUBLIC_ID_PATTERN, parseLocationLabel } from '../../../contract/places.ts'
import type { Db } from '../../db/client.ts'
import { hooks, keychains, keys, memberships, places, tags, users } from '../../db/schema.ts'
import { headerKey, type ParsedCsv } from './csv.ts'

type PlannedKey = { line: number; name: string; type: KeyType; tagCode: string | null }
type PlannedKeychain = {
  line: number
  name: string
  custodianEmail: string | null
  /** Its home cell as written (trimmed), null for none. */
  home: string | null
  keys: PlannedKey[]
}

/** What the file would create, the ids it names (members, tags), and what is wrong with its rows. */
export type ImportPlan = {
  keychains: PlannedKeychain[]
  custodianIds: Map<string, string>
  tagIds: Map<string, string>
  /** The hook each home cell names. */
  homeIds: Map<string, string>
  errors: ImportRowError[]
}

const MESSAGES: Record<ImportRowErrorCode, string> = {
  keychain_name_required: 'The keychain name is required.',
  keychain_name_too_long: 'The keychain name is too long (at most 120 characters).',
  keychain_exists: 'A keychain of this name already exists in the organization.',
  custodian_invalid: 'The custodian e-mail is not a valid address.',
  custodian_not_member: 'The custodian must be a member of the organization.',
  custodian_conflict: 'Another row gives this keychain a different custodian.',
  key_name_required: 'The key name is required.',
  key_name_too_long: 'The key name is too long (at most 120 characters).',
  key_type_invalid: 'The key type must be KEY or TAG.',
  tag_code_required: 'A TAG key needs a tag code.',
  tag_code_not_allowed: 'A KEY has no tag code (use the type TAG).',
  tag_unknown: 'No tag of the organization has this code.',
  tag_taken: 'This tag is already on a key.',
  tag_repeated: 'This tag code is already on an earlier row.',
  home_unknown: 'No hook of the organization is named so (board / hook code, or the hook’s label id).',
  home_ambiguous: 'Several boards of this name have this hook: give the hook’s label id instead.',
  home_conflict: 'Another row gives this keychain a different home.',
  text_invalid: 'Line breaks, tabs and other control characters are not allowed here.',
  column_count: 'The row has more cells than the header has columns.',
}

const VALUE_SHOWN = 120
const COLUMN_ORDER = new Map(KEYCHAIN_CSV_COLUMNS.map((column, index) => [column, index]))

/** KEY or TAG, in any case; "clé" is a KEY too. Empty: TAG when a tag code is given, else KEY. */
function keyTypeOf(written: string, tagCode: string): KeyType | null {
  const type = headerKey(written).toUpperCase()
  if (type === '') return tagCode === '' ? 'KEY' : 'TAG'
  if (type === 'KEY' || type === 'CLE') return 'KEY'
  if (type === 'TAG') return 'TAG'
  return null
}

/** The code of a name cell's failure against the contract's schema (required, too long, control characters). */
function nameFailure(
  schema: v.GenericSchema<string, string>,
  value: string,
  codes: { required: ImportRowErrorCode; tooLong: ImportRowErrorCode },
): ImportRowErrorCode | null {
  const result = v.safeParse(schema, value)
  if (result.success) return null
  const type = result.issues[0].type
  if (type === 'non_empty') return codes.required
  if (type === 'max_length') return codes.tooLong
  return 'text_invalid'
}

/**
 * Checks every row of the file against the contract's rules and the organization's data: names, the custodian
 * (an active or invited member, the same on each row of a keychain), key type and tag code (a tag of the
 * organization, on no key, once in the file), a keychain name not already used. Rows are grouped into keychains
 * by name (exactly as written, trimmed). Reads only: four statements whatever the file's size.
 */
export async function checkImport(db: Db, organizationId: string, parsed: ParsedCsv): Promise<ImportPlan> {
  const errors: ImportRowError[] = []
  const fail = (line: number, column: KeychainCsvColumn | null, code: ImportRowErrorCode, value = '') =>
    errors.push({ line, column, code, message: MESSAGES[code], value: value.slice(0, VALUE_SHOWN) })
  const byName = new Map<string, PlannedKeychain>()
  const emailRows = new Map<string, number[]>()
  const tagRows = new Map<string, number>()
  const homeRows = new Map<string, number[]>()

  for (const { line, cells, extraCells } of parsed.rows) {
    if (extraCells) fail(line, null, 'column_count')
    const name = cells.keychain_name
    const nameError = nameFailure(KeychainCreateSchema.entries.name, name, {
      required: 'keychain_name_required',
      tooLong: 'keychain_name_too_long',
    })
    if (nameError) fail(line, 'keychain_name', nameError, name)

    let email: string | null = null
    if (cells.custodian_email !== '') {
      const parsedEmail = v.safeParse(EmailSchema, cells.custodian_email)
      if (parsedEmail.success) email = parsedEmail.output
      else fail(line, 'custodian_email', 'custodian_invalid', cells.custodian_email)
    }

    let key: PlannedKey | null = null
    const tagCode = cells.tag_code.toUpperCase()
    if (cells.key_name !== '' || cells.key_type !== '' || tagCode !== '') {
      const keyNameError = nameFailure(KeyUpdateSchema.entries.name, cells.key_name, {
        required: 'key_name_required',
        tooLong: 'key_name_too_long',
      })
      if (keyNameError) fail(line, 'key_name', keyNameError, cells.key_name)
      const type = keyTypeOf(cells.key_type, tagCode)
      if (!type) fail(line, 'key_type', 'key_type_invalid', cells.key_type)
      else if (type === 'TAG' && tagCode === '') fail(line, 'tag_code', 'tag_code_required')
      else if (type === 'KEY' && tagCode !== '')
        fail(line, 'tag_code', 'tag_code_not_allowed', cells.tag_code)
      else if (type === 'TAG' && tagRows.has(tagCode)) fail(line, 'tag_code', 'tag_repeated', cells.tag_code)
      else if (type === 'TAG') tagRows.set(tagCode, line)
      if (type) key = { line, name: cells.key_name, type, tagCode: type === 'TAG' ? tagCode : null }
    }

    if (nameError) continue
    let keychain = byName.get(name)
    if (!keychain) {
      keychain = { line, name, custodianEmail: null, home: null, keys: [] }
      byName.set(name, keychain)
    }
    const home = cells.home
    if (home !== '') {
      if (keychain.home === null) keychain.home = home
      else if (keychain.home !== home) fail(line, 'home', 'home_conflict', home)
      homeRows.set(home, [...(homeRows.get(home) ?? []), line])
    }
    if (email !== null) {
      if (keychain.custodianEmail === null) keychain.custodianEmail = email
      else if (keychain.custodianEmail !== email)
        fail(line, 'custodian_email', 'custodian_conflict', cells.custodian_email)
      emailRows.set(email, [...(emailRows.get(email) ?? []), line])
    }
    if (key) keychain.keys.push(key)
  }

  const planned = [...byName.values()]
  const emails = [...emailRows.keys()]
  const codes = [...tagRows.keys()]
  const names = planned.map((keychain) => keychain.name)
  const [members, existing, found, homeIds] = await Promise.all([
    emails.length === 0
      ? []
      : db
          .select({ id: users.id, email: users.email })
          .from(memberships)
          .innerJoin(users, eq(users.id, memberships.userId))
          .where(
            and(
              eq(memberships.organizationId, organizationId),
              ne(memberships.status, 'DISABLED'),
              sql`${users.email} = any(${textArray(emails)})`,
            ),
          ),
    names.length === 0
      ? []
      : db
          .select({ name: keychains.name })
          .from(keychains)
          .where(
            and(
              eq(keychains.organizationId, organizationId),
              // A deleted keychain's name is free for a new one (a restore may bring two of a name back).
              isNull(keychains.deletedAt),
              sql`${keychains.name} = any(${textArray(names)})`,
            ),
          ),
    codes.length === 0
      ? []
      : db
          .select({ id: tags.id, code: tags.code, keyId: keys.id })
          .from(tags)
          .leftJoin(keys, eq(keys.tagId, tags.id))
          .where(and(eq(tags.organizationId, organizationId), sql`${tags.code} = any(${textArray(codes)})`)),
    homeRows.size === 0 ? new Map<string, string[]>() : homesNamed(db, organizationId, [...homeRows.keys()]),
  ])

  const custodianIds = new Map(members.map((member) => [member.email, member.id]))
  for (const [email, lines] of emailRows) {
    if (custodianIds.has(email)) continue
    for (const line of lines) fail(line, 'custodian_email', 'custodian_not_member', email)
  }
  const taken = new Set(existing.map((row) => row.name))
  for (const keychain of planned) {
    if (taken.has(keychain.name)) fail(keychain.line, 'keychain_name', 'keychain_exists', keychain.name)
  }
  const tagIds = new Map<string, string>()
  const tagsByCode = new Map(found.map((tag) => [tag.code, tag]))
  for (const [code, line] of tagRows) {
    const tag = tagsByCode.get(code)
    if (!tag) fail(line, 'tag_code', 'tag_unknown', code)
    else if (tag.keyId) fail(line, 'tag_code', 'tag_taken', code)
    else tagIds.set(code, tag.id)
  }

  const homes = new Map<string, string>()
  for (const [home, lines] of homeRows) {
    const ids = homeIds.get(home) ?? []
    if (ids.length === 1) homes.set(home, ids[0]!)
    else
      for (const line of lines) fail(line, 'home', ids.length === 0 ? 'home_unknown' : 'home_ambiguous', home)
  }

  errors.sort(
    (a, b) =>
      a.line - b.line ||
      (a.column === null ? -1 : COLUMN_ORDER.get(a.column)!) -
        (b.column === null ? -1 : COLUMN_ORDER.get(b.column)!),
  )
  return { keychains: planned, custodianIds, tagIds, homeIds: homes, errors }
}

/**
 * The hooks each home cell may name: by public id (the id alone, or a hook label's URL), or by board name (any
 * case) and hook code (`HOME_SEPARATOR` between them, the last one when a name holds a slash). One statement:
 * the organization's hooks that match either way.
 */
async function homesNamed(db: Db, organizationId: string, cells: string[]): Promise<Map<string, string[]>> {
  const wanted = cells.map((cell) => {
    const label = parseLocationLabel(cell)
    if (label?.kind === 'hook') return { cell, publicId: label.publicId }
    if (LOCATION_PUBLIC_ID_PATTERN.test(cell.toLowerCase())) return { cell, publicId: cell.toLowerCase() }
    const slash = cell.lastIndexOf('/')
    if (slash === -1) return { cell }
    return {
      cell,
      board: cell.slice(0, slash).trim().toLowerCase(),
      code: cell
        .slice(slash + 1)
        .trim()
        .toUpperCase(),
    }
  })
  const publicIds = wanted.flatMap((item) => (item.publicId ? [item.publicId] : []))
  const codes = wanted.flatMap((item) => (item.code ? [item.code] : []))
  if (publicIds.length === 0 && codes.length === 0) return new Map()
  const rows = await db
    .select({
      id: hooks.id,
      publicId: hooks.publicId,
      code: hooks.code,
      board: sql<string>`lower(${places.name})`,
    })
    .from(hooks)
    .innerJoin(places, eq(places.id, hooks.placeId))
    .where(
      and(
        eq(hooks.organizationId, organizationId),
        or(
          sql`${hooks.publicId} = any(${textArray(publicIds)})`,
          sql`${hooks.code} = any(${textArray(codes)})`,
        ),
      ),
    )
  return new Map(
    wanted.map((item) => [
      item.cell,
      rows
        .filter((row) =>
          item.publicId ? row.publicId === item.publicId : row.code === item.code && row.board === item.board,
        )
        .map((row) => row.id),
    ]),
  )
}

/** A text[] as one parameter, a PostgreSQL array literal with each element quoted (`{"a,b","say \"hi\""}`). */
function textArray(texts: string[]) {
  const items = texts.map((text) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)
  return sql`${`{${items.join(',')}}`}::text[]`
}

/** The preview's answer: counts, the first errors, the first keychains. */
export function previewOf(parsed: ParsedCsv, plan: ImportPlan): ImportPreview {
  const keyCount = plan.keychains.reduce((total, keychain) => total + keychain.keys.length, 0)
  const tagCount = plan.keychains.reduce(
    (total, keychain) => total + keychain.keys.filter((key) => key.type === 'TAG').length,
    0,
  )
  return {
    delimiter: parsed.delimiter,
    rows: parsed.rows.length,
    keychains: plan.keychains.length,
    keys: keyCount,
    tags: tagCount,
    errorCount: plan.errors.length,
    errors: plan.errors.slice(0, IMPORT_ERRORS_SHOWN),
    sample: plan.keychains.slice(0, IMPORT_SAMPLE_SIZE).map((keychain) => ({
      line: keychain.line,
      name: keychain.name,
      custodianEmail: keychain.custodianEmail,
      home: keychain.home,
      keys: keychain.keys.map((key) => ({ name: key.name, type: key.type, tagCode: key.tagCode })),
    })),
  }
}
