import type { Profile } from '../contract/auth.ts'
import type { Keychain, KeychainSummary } from '../contract/keychains.ts'
import type { Tag } from '../contract/tags.ts'
import type { Transfer } from '../contract/transfers.ts'

/** Rows as the server sends them, for the tests of the device's mirror. */

export const ORG = '00000000-0000-4000-8000-0000000000d1'
export const OTHER_ORG = '00000000-0000-4000-8000-0000000000d2'
export const ADMIN = '00000000-0000-4000-8000-0000000000a1'
export const CONTACT = '00000000-0000-4000-8000-0000000000b1'
export const NOW = new Date('2026-11-22T10:00:00.000Z')

/** ADMIN's profile, ORG selected, reading tags and keychains. */
export const adminProfile = (overrides: Partial<Profile> = {}): Profile => ({
  id: ADMIN,
  email: 'admin@example.com',
  firstName: 'Ada',
  lastName: 'Admin',
  phoneNumber: '',
  locale: 'fr',
  reminderMails: true,
  theme: 'system',
  isOperator: false,
  selectedOrganizationId: ORG,
  permissions: ['read__tag', 'read__keychain'],
  ...overrides,
})

/** CONTACT's profile (the recipient of `transfer`), ORG selected, who may pick up. */
export const contactProfile = (overrides: Partial<Profile> = {}): Profile => ({
  id: CONTACT,
  email: 'contact@example.com',
  firstName: 'Léa',
  lastName: 'Martin',
  phoneNumber: '',
  locale: 'fr',
  reminderMails: true,
  theme: 'system',
  isOperator: false,
  selectedOrganizationId: ORG,
  permissions: ['pickup__transfer'],
  ...overrides,
})

export const tag = (code: string, publicId: string, keychainId: string | null): Tag => ({
  id: `tag-${code}`,
  publicId,
  code,
  name: `Tag ${code}`,
  foregroundColor: '#000000',
  backgroundColor: '#ffffff',
  url: `https://trousseau.test/tags/${publicId}`,
  key: keychainId
    ? { id: `key-${code}`, name: 'Porte', keychainId, keychainName: `Keychain ${keychainId}` }
    : null,
  createdAt: '2026-11-01T00:00:00.000Z',
})
export const CAVE_TAG = tag('AGC-00042', 'abcdefghijklmnopqrst', 'kc-cave')

export const summary = (id: string): KeychainSummary => ({
  id,
  name: `Keychain ${id}`,
  custodian: null,
  keyCount: 1,
  tagCodes: [],
  updatedAt: '2026-11-01T00:00:00.000Z',
})

export const transfer = (id: string, overrides: Partial<Transfer> = {}): Transfer => ({
  id,
  organizationId: ORG,
  organizationName: 'Syndic des Archives',
  keychain: { id: 'kc-cave', name: 'Keychain kc-cave', tags: [CAVE_TAG] },
  recipient: { id: CONTACT, email: 'contact@example.com', firstName: 'Léa', lastName: 'Martin' },
  authorizedBy: null,
  fromDate: '2026-11-22',
  toDate: '2026-11-24',
  startsAt: '2026-11-21T23:00:00.000Z',
  endsAt: '2026-11-23T23:00:00.000Z',
  status: 'SCHEDULED',
  expired: false,
  expiresAt: '2026-11-23T23:00:00.000Z',
  pickupAddress: {
    line1: '14 rue des Archives',
    line2: '',
    city: 'Paris',
    postalCode: '75004',
    country: 'FR',
  },
  pickups: [],
  next: 'PICKUP',
  refusal: null,
  createdAt: '2026-11-20T08:00:00.000Z',
  cancelledAt: null,
  chasedAt: null,
  extension: null,
  ...overrides,
})

export const CUSTODIAN = {
  id: '00000000-0000-4000-8000-0000000000c1',
  email: 'gardien@example.com',
  firstName: 'Paul',
  lastName: 'Gardien',
}

export const keychain = (id: string, overrides: Partial<Keychain> = {}): Keychain => ({
  id,
  organizationId: ORG,
  organizationName: 'Syndic des Archives',
  name: `Keychain ${id}`,
  custodian: null,
  keys: [],
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...overrides,
})

/** A key of a keychain's detail, with the tag it carries (or none). */
export const keyOf = (name: string, carried: Tag | null): Keychain['keys'][number] => ({
  id: carried?.key?.id ?? `key-${name}`,
  name,
  type: carried ? 'TAG' : 'KEY',
  tag: carried
    ? { id: carried.id, publicId: carried.publicId, code: carried.code, name: carried.name }
    : null,
})
