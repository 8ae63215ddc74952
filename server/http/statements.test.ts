import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { statementsOf } from '../db/statement-count.ts'
import { setupTestApp } from '../test/harness.ts'
import { makeTransfer, transferWorld } from '../test/transfers.ts'

const t = setupTestApp()

/** What a request costs in SQL statements (BEGIN and COMMIT aside): the budget of the hot paths. */
async function cost(request: () => Promise<Response>, status: number) {
  const { result, statements } = await statementsOf(request)
  expect(result.status).toBe(status)
  return statements
}

describe('statements per request', () => {
  it('GET /keychains/{id}: at most 2', async () => {
    const world = await transferWorld(t)
    const statements = await cost(
      () => t.get(`/api/keychains/${world.keychain.id}`, { cookie: world.admin.cookie }),
      200,
    )
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(2)
  })

  it('POST /scans of a tag on a keychain: at most 6; with a transfer to show, at most 9', async () => {
    const world = await transferWorld(t)
    const scan = () =>
      t.post('/api/scans', {
        cookie: world.member.cookie,
        headers: { 'idempotency-key': randomUUID() },
        json: { value: world.tag.code },
      })
    const plain = await cost(scan, 201)
    expect(plain.length, plain.join('\n')).toBeLessThanOrEqual(6)
    await makeTransfer(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      recipientId: world.contact.id,
    })
    const withTransfer = await cost(scan, 201)
    expect(withTransfer.length, withTransfer.join('\n')).toBeLessThanOrEqual(9)
  })

  it('GET /keychains: at most 2', async () => {
    const world = await transferWorld(t)
    const statements = await cost(() => t.get('/api/keychains', { cookie: world.admin.cookie }), 200)
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(2)
  })

  it('GET /stats/dashboard: at most 5, whatever the organization’s size', async () => {
    const world = await transferWorld(t)
    const statements = await cost(() => t.get('/api/stats/dashboard', { cookie: world.admin.cookie }), 200)
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(5)
  })
})
