import { dashboardEndpoints } from '../../contract/endpoints/dashboard.ts'
import { organizationEndpoints } from '../../contract/endpoints/organizations.ts'
import { profileEndpoints } from '../../contract/endpoints/profile.ts'
import { transferEndpoints } from '../../contract/endpoints/transfers.ts'
import type { Transfer } from '../../contract/transfers.ts'
import { call } from '../lib/call.ts'
import { yieldToMain } from '../lib/yield-to-main.ts'
import { withDb } from './db.ts'
import type { FieldContext } from './field.ts'
import {
  mirrorDashboard,
  mirrorOrganizations,
  mirrorOwner,
  mirrorProfile,
  mirrorTransfers,
} from './mirror.ts'

/** The user's own requests are few; past this many pages of 100 the oldest are left out. */
const MAX_REQUEST_PAGES = 20

async function requestsOf(): Promise<{ rows: Transfer[]; complete: boolean }> {
  const rows: Transfer[] = []
  let cursor: string | null = null
  for (let page = 0; page < MAX_REQUEST_PAGES; page += 1) {
    const answer: { data: Transfer[]; nextCursor: string | null } = await call(transferEndpoints.requests, {
      query: { limit: '100', cursor: cursor ?? undefined },
    })
    rows.push(...answer.data)
    cursor = answer.nextCursor
    if (!cursor) return { rows, complete: true }
  }
  return { rows, complete: false }
}

/**
 * What the change feed of the selected organization does not carry, refreshed now and then: the list of my
 * organizations, the dashboard's figures, my profile, and the transfers addressed to me in my other
 * organizations (a recipient picks up there offline too). Answers false when the session moved on meanwhile.
 */
export async function refreshAlongside(context: FieldContext): Promise<boolean> {
  const { organizationId, userId } = context
  const organizations = await call(organizationEndpoints.list)
  const dashboard = await call(dashboardEndpoints.counts)
  const requests = await requestsOf()
  const profile = await call(profileEndpoints.one)
  if (profile.id !== userId || profile.selectedOrganizationId !== organizationId) return false
  if ((await withDb(mirrorOwner)) !== userId) return false
  await mirrorOrganizations(organizations.data)
  await yieldToMain()
  await mirrorDashboard(organizationId, dashboard)
  await yieldToMain()
  await mirrorProfile(profile)
  await yieldToMain()
  await mirrorTransfers(requests.rows, userId)
  if (requests.complete) {
    // Requests elsewhere that the server no longer lists (a membership ended) are forgotten.
    const listed = new Set(requests.rows.map((each) => each.id))
    await withDb((db) =>
      db.transfers
        .filter((row) => row.mine === 1 && row.organizationId !== organizationId && !listed.has(row.id))
        .delete(),
    )
  }
  return true
}
