// A large organization written straight in SQL (the services would take minutes for 100,000 tags): tags
// numbered under two alpha codes, keychains with three tagged keys each until the tagged keys run out,
// transfers to the field member; and that member's session.
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../server/deps.ts'
import { createSession } from '../../server/modules/auth/sessions.ts'

export type Sizes = { tags: number; keychains: number; transfers: number }

export type SeededOrganization = {
  organizationId: string
  fieldUserId: string
  adminUserId: string
  /** `session=…` value of the field member's session. */
  fieldSession: string
  adminSession: string
  /** The code of the tag `n` (1-based) and the name of the keychain it is on (tags past 3 × keychains: none). */
  codeOf(n: number): string
  keychainOf(n: number): string | null
}

const PER_ALPHA = 50_000

export async function seedOrganization(
  deps: AppDeps,
  prefix: string,
  sizes: Sizes,
): Promise<SeededOrganization> {
  const db = deps.database.db
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows
  const [organization] = await rows<{ id: string }>(sql`
    insert into organizations (name, address_line1, city, postal_code, country, created_at)
    values (${`Bench ${prefix}`}, '1 rue du Banc', 'Paris', '75001', 'FR', now()) returning id`)
  const organizationId = organization!.id
  const user = async (role: string) => {
    const [row] = await rows<{ id: string }>(sql`
      insert into users (email, first_name, locale, selected_organization_id, created_at, last_seen_at, signed_in_at)
      values (${`${role.toLowerCase()}.${prefix.toLowerCase()}@bench.test`}, ${role}, 'fr', ${organizationId}, now(), now(), now())
      returning id`)
    await db.execute(sql`
      insert into memberships (user_id, organization_id, role, status, created_at)
      values (${row!.id}, ${organizationId}, ${role}, 'ACTIVE', now())`)
    return row!.id
  }
  const adminUserId = await user('ADMIN')
  const fieldUserId = await user('MEMBER')

  const alphas = [`${prefix}A`, `${prefix}B`, `${prefix}C`]
  for (let start = 0, index = 0; start < sizes.tags; start += PER_ALPHA, index += 1) {
    const count = Math.min(PER_ALPHA, sizes.tags - start)
    await db.execute(sql`
      insert into tags (public_id, organization_id, alpha_code, number, code, name, foreground_color, background_color, created_at)
      select substr(translate(md5(random()::text || n::text), '0189', 'wxyz'), 1, 20), ${organizationId},
        ${alphas[index]}, n, ${alphas[index]} || '-' || lpad(n::text, 5, '0'), 'Tag ' || n, '#111111', '#ffffff', now()
      from generate_series(1, ${count}::int) as n`)
  }
  await db.execute(sql`
    insert into keychains (organization_id, name, created_at, updated_at)
    select ${organizationId}, 'Logement ' || lpad(n::text, 5, '0'), now(), now()
    from generate_series(1, ${sizes.keychains}::int) as n`)
  await db.execute(sql`
    insert into keys (keychain_id, name, type, tag_id, created_at)
    select k.id, 'Clé ' || (t.rn % 3 + 1), 'TAG', t.id, now()
    from (select id, row_number() over (order by name) as kn from keychains where organization_id = ${organizationId}) k
    join (select id, row_number() over (order by code) - 1 as rn from tags where organization_id = ${organizationId}) t
      on t.rn / 3 + 1 = k.kn`)
  await db.execute(sql`
    insert into transfers (organization_id, keychain_id, keychain_name, recipient_id, authorized_by_id, from_date,
      to_date, starts_at, ends_at, status, created_at)
    select ${organizationId}, k.id, k.name, ${fieldUserId}, ${adminUserId}, current_date, current_date + 2,
      now() - interval '1 hour', now() + interval '2 days', 'SCHEDULED', now()
    from (select id, name from keychains where organization_id = ${organizationId} order by name limit ${sizes.transfers}) k`)
  await db.execute(sql`analyze`)

  const session = async (userId: string) => (await createSession(deps, userId, 'bench')).sessionId
  const codeOf = (n: number) =>
    `${alphas[Math.floor((n - 1) / PER_ALPHA)]}-${String(((n - 1) % PER_ALPHA) + 1).padStart(5, '0')}`
  return {
    organizationId,
    fieldUserId,
    adminUserId,
    fieldSession: await session(fieldUserId),
    adminSession: await session(adminUserId),
    codeOf,
    keychainOf: (n) => {
      const keychain = Math.floor((n - 1) / 3) + 1
      return keychain <= sizes.keychains ? `Logement ${String(keychain).padStart(5, '0')}` : null
    },
  }
}
