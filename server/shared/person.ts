import type { Person } from '../../contract/person.ts'
import type { UserRow } from '../db/schema.ts'

/** A user as answers name them: who holds, gave or received something. */
export function toPerson(user: Pick<UserRow, 'id' | 'email' | 'firstName' | 'lastName'>): Person {
  return { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName }
}

export const displayName = (user: Pick<UserRow, 'firstName' | 'lastName' | 'email'>) =>
  `${user.firstName} ${user.lastName}`.trim() || user.email
