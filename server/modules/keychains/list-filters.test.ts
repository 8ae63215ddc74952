import { describe, expect, it } from 'vitest'
import type { KeychainSummary } from '../../../contract/keychains.ts'
import { makeKeychain } from '../../test/fixtures.ts'
import { setupTestApp } from '../../test/harness.ts'
import { makeTransfer, parisDay, transferWorld } from '../../test/transfers.ts'
import { isCodeLike, keychainStatus, statusWhere } from './list-filters.ts'

const NOW = new Date('2030-01-15T09:00:00Z')
const at = (ms: number) => new Date(NOW.getTime() + ms)

describe('a keychain’s status from its own columns and the clock', () => {
  const row = (
    transferStatus: 'SCHEDULED' | 'TRANSFERRED' | null,
    endsIn: number | null,
    custodianId: string | null = null,
  ) => ({
    transferStatus,
    transferEndsAt: endsIn === null ? null : at(endsIn),
    custodianId,
  })

  it('is out until the end of its transfer, overdue from that very instant', () => {
    expect(keychainStatus(row('TRANSFERRED', 1), NOW)).toBe('OUT')
    expect(keychainStatus(row('TRANSFERRED', 0), NOW)).toBe('OVERDUE')
    expect(keychainStatus(row('TRANSFERRED', -1, 'u1'), NOW)).toBe('OVERDUE')
    expect(keychainStatus(row('TRANSFERRED', null), NOW)).toBe('OVERDUE')
  })

  it('is scheduled until its window ends, then held or free as if it had none', () => {
    expect(keychainStatus(row('SCHEDULED', 1), NOW)).toBe('SCHEDULED')
    expect(keychainStatus(row('SCHEDULED', 0), NOW)).toBe('FREE')
    expect(keychainStatus(row('SCHEDULED', -1, 'u1'), NOW)).toBe('HELD')
  })

  it('without a transfer, is held when someone holds it, else free', () => {
    expect(keychainStatus(row(null, null, 'u1'), NOW)).toBe('HELD')
    expect(keychainStatus(row(null, null), NOW)).toBe('FREE')
    expect(keychainStatus(row(null, 5, 'u1'), NOW)).toBe('HELD')
  })

  it('has no condition for the deleted list (the caller filters on the deletion column)', () => {
    expect(statusWhere('deleted', NOW)).toBeUndefined()
    expect(statusWhere('free', NOW)).toBeDefined()
  })
})

describe('which searched texts can be part of a tag code (the tag index is asked only for those)', () => {
  it.each([
    ['SRC-00001', true],
    ['src-0', true],
    ['SRC-', true],
    ['00777', true],
    ['-12', true],
    ['-', true],
  ])('%s can', (text, expected) => {
    expect(isCodeLike(text)).toBe(expected)
  })

  it.each([
    ['SRC', false],
    ['Logement 00777', false],
    ['SRC-00001 x', false],
    ['x SRC-1', false],
    ['AB-12C', false],
    ['12-AB', false],
    ['', false],
  ])('%s cannot', (text, expected) => {
    expect(isCodeLike(text)).toBe(expected)
  })
})

const t = setupTestApp()

describe('GET /api/keychains?status=free and status=unheld', () => {
  it('free leaves out a keychain nobody holds that is out on a transfer; unheld keeps it', async () => {
    // Its own keychain, Cave, is held by its member: in neither list.
    const world = await transferWorld(t)
    const away = await makeKeychain(t, world.organization.id, 'Away')
    await makeKeychain(t, world.organization.id, 'Idle')
    await makeTransfer(t, {
      organizationId: world.organization.id,
      keychainId: away.id,
      recipientId: world.contact.id,
      status: 'TRANSFERRED',
      toDate: parisDay(t, 3),
    })
    const names = async (status: string) => {
      const response = await t.get(`/api/keychains?status=${status}`, { cookie: world.admin.cookie })
      expect(response.status).toBe(200)
      return ((await response.json()) as { data: KeychainSummary[] }).data.map((row) => row.name)
    }
    expect(await names('free')).toEqual(['Idle'])
    expect(await names('unheld')).toEqual(['Away', 'Idle'])
  })
})
