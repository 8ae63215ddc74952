import type { Profile } from '../../contract/auth.ts'
import { profileEndpoints } from '../../contract/endpoints/profile.ts'
import type { Transfer } from '../../contract/transfers.ts'
import { call } from '../lib/call.ts'
import { yieldToMain } from '../lib/yield-to-main.ts'
import { ensureDeviceKey } from './device-key.ts'
import type { FieldContext } from './field.ts'
import { settleHandover } from './handover.ts'
import { claimMirror, mirrorProfile, mirrorTransfers } from './mirror.ts'
import { settlePairing } from './pairing-mirror.ts'
import { refreshAlongside } from './refresh.ts'
import { requestPersistentStorage } from './storage.ts'
import { syncMirror } from './sync.ts'
import { sendItem } from './transport.ts'
import { type OutboxWorker, startOutboxWorker } from './worker.ts'

/**
 * The Dexie side of field mode, loaded after the first paint: the mirror made the account's, its background
 * refresh, and the outbox worker.
 */
export async function startFieldMode(input: {
  profile: Profile
  onChanged: () => void
}): Promise<OutboxWorker> {
  const userId = input.profile.id
  void requestPersistentStorage()
  await claimMirror(userId)
  await yieldToMain()
  await mirrorProfile(input.profile)
  await yieldToMain()
  void registerDeviceKey(userId)
  return startOutboxWorker({
    userId,
    // Before a drain: the session this tab would send with must still be this account's (another tab may have
    // signed in someone else), and scans go only while their organization is the selected one.
    session: async () => {
      const current = await call(profileEndpoints.one)
      return current.id === userId ? current : null
    },
    transport: async (item) => {
      const outcome = await sendItem(item, true)
      // What the server says replaces what the device assumed (a provisional pickup, say).
      if (outcome.kind === 'sent' && item.kind === 'pickup')
        await mirrorTransfers([outcome.result as Transfer], userId)
      if (item.kind === 'pairCreate' || item.kind === 'pairAttach') await settlePairing(item, outcome)
      if (item.kind === 'handover') await settleHandover(item, outcome)
      return outcome
    },
    onDrained: (report) => {
      if (report.sent + report.refused + report.serverFailed === 0) return
      input.onChanged()
      // A refusal means the device's picture was wrong (a cancelled transfer), and an item given up after server
      // errors leaves a provisional move the server does not have: fetch the truth again.
      if (report.refused + report.serverFailed > 0) void syncFieldMirror(fieldContext(input.profile))
    },
  })
}

export function fieldContext(profile: Profile): FieldContext | null {
  return profile.selectedOrganizationId
    ? { userId: profile.id, organizationId: profile.selectedOrganizationId, permissions: profile.permissions }
    : null
}

/** This device's signing key for handovers: made, registered until the server has it, renewed before it expires. */
async function registerDeviceKey(userId: string): Promise<void> {
  await ensureDeviceKey(userId).catch((error: unknown) => console.warn('Device key failed', error))
}

/**
 * Brings the mirror of the selected organization up to date from the change feed (a full sync the first time),
 * then sees to this device's key (the feed may have shown it revoked).
 */
export async function syncFieldMirror(context: FieldContext | null): Promise<void> {
  if (!context || !navigator.onLine) return
  await claimMirror(context.userId)
  await syncMirror(context).catch((error: unknown) => console.warn('Mirror sync failed', error))
  await registerDeviceKey(context.userId)
}

/** What the feed does not carry (organizations, dashboard, profile, requests elsewhere), less often. */
export async function refreshFieldExtras(context: FieldContext | null): Promise<void> {
  if (!context || !navigator.onLine) return
  await claimMirror(context.userId)
  await refreshAlongside(context).catch((error: unknown) => console.warn('Mirror refresh failed', error))
}

/** Signed out (or the session ended): nothing of this account stays readable on the device. */
export async function forgetAccount(): Promise<void> {
  await claimMirror(null)
}
