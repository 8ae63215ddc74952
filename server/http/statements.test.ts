import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../../tests/server/harness.ts'
import { statementsOf } from '../../tests/server/statement-count.ts'
import { makeTransfer, transferWorld } from '../../tests/server/transfers.ts'

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

  it('POST /scans of a tag on a keychain: at most 5, with a transfer to show too (session, tag, transfers, the claim with the scan, the wake of the scan ledger’s job; the job itself runs after the answer)', async () => {
    const world = await transferWorld(t)
    const scan = () =>
      t.post('/api/scans', {
        cookie: world.member.cookie,
        headers: { 'idempotency-key': randomUUID() },
        json: { value: world.tag.code },
      })
    const plain = await cost(scan, 201)
    expect(plain.length, plain.join('\n')).toBeLessThanOrEqual(5)
    await makeTransfer(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      recipientId: world.contact.id,
    })
    const withTransfer = await cost(scan, 201)
    expect(withTransfer.length, withTransfer.join('\n')).toBeLessThanOrEqual(5)
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

describe('statements per request: transfers', () => {
  it('GET /transfers/{id} and GET /transfers: at most 3, the view with its pickups, tags and the keychain out in one', async () => {
    const world = await transferWorld(t)
    const transfer = await makeTransfer(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      recipientId: world.contact.id,
      status: 'TRANSFERRED',
    })
    const detail = await cost(
      () => t.get(`/api/transfers/${transfer.id}`, { cookie: world.admin.cookie }),
      200,
    )
    expect(detail.length, detail.join('\n')).toBeLessThanOrEqual(3)
    const list = await cost(() => t.get('/api/transfers', { cookie: world.admin.cookie }), 200)
    expect(list.length, list.join('\n')).toBeLessThanOrEqual(2)
    const requests = await cost(() => t.get('/api/transfers/requests', { cookie: world.contact.cookie }), 200)
    expect(requests.length, requests.join('\n')).toBeLessThanOrEqual(3)
  })
})
