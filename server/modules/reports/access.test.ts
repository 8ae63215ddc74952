import { describe, expect, it } from 'vitest'
import { endpointTables } from '../../../contract/endpoints/all.ts'
import { signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { transferWorld } from '../../../tests/server/transfers.ts'

const t = setupTestAppAtEpoch()

const reports = Object.values(endpointTables.reportEndpoints!)

describe('who may read the reports', () => {
  it('lets admins and managers read every report and its export, refuses members and contacts (403) and anyone signed out (401)', async () => {
    const { organization, admin, member, contact } = await transferWorld(t, { name: 'Rôles' })
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const expected = { ADMIN: 200, MANAGER: 200, MEMBER: 403, CONTACT: 403 } as const
    const callers = { ADMIN: admin, MANAGER: manager, MEMBER: member, CONTACT: contact }
    expect(reports).toHaveLength(10)
    for (const report of reports) {
      const path = `/api${report.path}?person=${member.id}`
      for (const [role, caller] of Object.entries(callers)) {
        const response = await t.get(path, { cookie: caller.cookie })
        expect(response.status, `${role} ${path}`).toBe(expected[role as keyof typeof expected])
        if (response.status === 403) expect((await response.json()).error.code).toBe('forbidden')
        if (response.status === 200 && report.path.endsWith('/export'))
          expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
      }
      expect((await t.get(path)).status, path).toBe(401)
    }
  })
})
