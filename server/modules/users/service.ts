import { eq } from 'drizzle-orm'
import type { Locale } from '../../../contract/locale.ts'
import { type UserRow, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'

type Deps = Pick<AppDeps, 'database' | 'clock'>

/** The account of a verified address, created on its first sign-in with the locale the mail was sent in. */
export async function signInUser(deps: Deps, email: string, locale: Locale): Promise<UserRow> {
  const now = deps.clock.now()
  const [user] = await deps.database.db
    .insert(users)
    .values({ email, locale, createdAt: now, lastSeenAt: now })
    .onConflictDoUpdate({ target: users.email, set: { lastSeenAt: now } })
    .returning()
  if (!user) throw new Error('user upsert returned no row')
  return user
}

async function findUserById(deps: Pick<Deps, 'database'>, id: string): Promise<UserRow | null> {
  const [user] = await deps.database.db.select().from(users).where(eq(users.id, id))
  return user ?? null
}

export type UserUpdate = Partial<
  Pick<UserRow, 'firstName' | 'lastName' | 'phoneNumber' | 'locale' | 'reminderMails' | 'theme'>
>

export async function updateUser(
  deps: Pick<Deps, 'database'>,
  id: string,
  update: UserUpdate,
): Promise<UserRow> {
  const changes = Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined))
  if (Object.keys(changes).length === 0) {
    const user = await findUserById(deps, id)
    if (!user) throw new Error(`user ${id} not found`)
    return user
  }
  const [user] = await deps.database.db.update(users).set(changes).where(eq(users.id, id)).returning()
  if (!user) throw new Error(`user ${id} not found`)
  return user
}
