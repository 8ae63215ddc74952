import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { calendarDayIn } from '../../contract/calendar-day.ts'
import { transferEndpoints } from '../../contract/endpoints/transfers.ts'
import { ErrorCode } from '../../contract/errors.ts'
import type { Acceptance } from '../../contract/receipts.ts'
import type {
  SortOrder,
  Transfer,
  TransferCreate,
  TransferQuickFilter,
  TransferSort,
  TransferStatus,
} from '../../contract/transfers.ts'
import { refusedWith } from '../lib/api.ts'
import { call } from '../lib/call.ts'
import { mirrored, mirrorStore } from '../offline/mirrored.ts'
import type { memberKeys } from './members.ts'
import type { subscriptionKeys } from './subscriptions.ts'

const transferKeys = {
  /** Everything about transfers: a pickup, a cancellation or a new authorization refreshes all of it. */
  all: ['transfers'] as const,
  list: (organizationId: string, filter: TransferFilter, cursor: string | null) =>
    [
      'transfers',
      organizationId,
      'list',
      filter.status ?? '',
      String(filter.expired ?? ''),
      filter.when ?? '',
      filter.sort ?? '',
      filter.order ?? '',
      cursor,
    ] as const,
  overlaps: (keychainId: string, fromDate: string, toDate: string) =>
    ['transfers', 'overlaps', keychainId, fromDate, toDate] as const,
  ofKeychain: (organizationId: string, keychainId: string, cursor: string | null) =>
    ['transfers', organizationId, 'keychain', keychainId, cursor] as const,
  requests: (cursor: string | null) => ['transfers', 'requests', cursor] as const,
  one: (id: string) => ['transfers', 'one', id] as const,
}

export type TransferFilter = {
  status?: TransferStatus | undefined
  expired?: boolean | undefined
  /** A quick filter: windows opening or due back today, or keychains late. */
  when?: TransferQuickFilter | undefined
  sort?: TransferSort | undefined
  order?: SortOrder | undefined
}

/**
 * The list as the server would give it, from the device's mirror (offline): the same filters and order. "Today"
 * is the device's calendar day there (the organization's time zone is the server's to know).
 */
function mirroredList(rows: Transfer[], filter: TransferFilter): Transfer[] {
  const today = calendarDayIn(Intl.DateTimeFormat().resolvedOptions().timeZone, new Date())
  const kept = rows.filter(
    (each) =>
      (!filter.status || each.status === filter.status) &&
      (filter.expired === undefined || each.expired === filter.expired) &&
      (filter.when !== 'today' ||
        (each.status !== 'CANCELLED' && (each.fromDate === today || each.toDate === today))) &&
      (filter.when !== 'overdue' || (each.status === 'RETURNING' && each.expired)),
  )
  const key = (each: Transfer) => `${filter.sort === 'end' ? each.endsAt : each.startsAt} ${each.id}`
  const sorted = kept.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
  return filter.order === 'asc' ? sorted : sorted.reverse()
}

const expiredParam = (expired: boolean | undefined) =>
  expired === undefined ? undefined : expired ? ('true' as const) : ('false' as const)

/** The selected organization's transfers, newest window first (a CONTACT gets only theirs). */
export const transferListQuery = (organizationId: string, filter: TransferFilter, cursor: string | null) =>
  queryOptions({
    queryKey: transferKeys.list(organizationId, filter, cursor),
    queryFn: () =>
      mirrored(
        () =>
          call(transferEndpoints.list, {
            query: {
              status: filter.status,
              expired: expiredParam(filter.expired),
              when: filter.when,
              sort: filter.sort,
              order: filter.order,
              cursor: cursor ?? undefined,
            },
          }),
        async (page) => (await mirrorStore()).mirrorTransfers(page.data, null),
        async () =>
          cursor
            ? undefined
            : {
                data: mirroredList(await (await mirrorStore()).mirroredTransfers(organizationId), filter),
                nextCursor: null,
              },
      ),
  })

/** A keychain's authorizations, past and current. */
export const keychainTransfersQuery = (organizationId: string, keychainId: string, cursor: string | null) =>
  queryOptions({
    queryKey: transferKeys.ofKeychain(organizationId, keychainId, cursor),
    queryFn: () =>
      mirrored(
        () =>
          call(transferEndpoints.ofKeychain, {
            params: { id: keychainId },
            query: { cursor: cursor ?? undefined },
          }),
        async (page) => (await mirrorStore()).mirrorTransfers(page.data, null),
        async () =>
          cursor
            ? undefined
            : {
                data: (await (await mirrorStore()).mirroredTransfers(organizationId)).filter(
                  (each) => each.keychain.id === keychainId,
                ),
                nextCursor: null,
              },
      ),
  })

/**
 * The keychain's transfers a new one from `fromDate` to `toDate` would overlap (what authorizing it refuses);
 * online only: the form says it before submitting, the server decides.
 */
export const overlapsQuery = (keychainId: string, fromDate: string, toDate: string) =>
  queryOptions({
    queryKey: transferKeys.overlaps(keychainId, fromDate, toDate),
    queryFn: async () =>
      (await call(transferEndpoints.overlaps, { params: { id: keychainId }, query: { fromDate, toDate } }))
        .data,
  })

/** Transfers addressed to me, in every organization: open ones first. */
export const requestsQuery = (cursor: string | null) =>
  queryOptions({
    queryKey: transferKeys.requests(cursor),
    queryFn: () =>
      mirrored(
        () => call(transferEndpoints.requests, { query: { cursor: cursor ?? undefined } }),
        async (page) => (await mirrorStore()).mirrorTransfers(page.data, page.data[0]?.recipient.id ?? null),
        async () =>
          cursor ? undefined : { data: await (await mirrorStore()).mirroredRequests(), nextCursor: null },
      ),
  })

export const transferQuery = (id: string) =>
  queryOptions({
    queryKey: transferKeys.one(id),
    queryFn: () =>
      mirrored(
        () => call(transferEndpoints.one, { params: { id } }),
        async (transfer) => (await mirrorStore()).mirrorTransfers([transfer], null),
        async () => (await mirrorStore()).mirroredTransfer(id),
      ),
  })

// The subscriptions' and the members' keys, written out: importing their modules would bring their calls and
// endpoint tables onto every transfer page.
const SUBSCRIPTIONS: typeof subscriptionKeys.all = ['subscription']
const MEMBERS: typeof memberKeys.all = ['members']

/** What an authorization changes: the transfer lists, the month's allowance, the members (a new contact joins). */
function useRefreshAfterAuthorizing() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all(
      [transferKeys.all, SUBSCRIPTIONS, MEMBERS].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    )
}

/** Authorizes a transfer of the keychain to a member or a new contact for a date window. */
export function useCreateTransfer(keychainId: string) {
  const refresh = useRefreshAfterAuthorizing()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: TransferCreate) =>
      call(transferEndpoints.create, { params: { id: keychainId }, body: input }),
    onSuccess: refresh,
    // Another authorization took the days meanwhile: the form's overlap warning asks again and names it.
    onError: (error) => {
      if (refusedWith(error, 409, ErrorCode.transferOverlap))
        void queryClient.invalidateQueries({ queryKey: ['transfers', 'overlaps', keychainId] })
    },
  })
}

/** Cancels an authorization not picked up yet; a refusal means the screen was stale, so it refreshes either way. */
export function useCancelTransfer() {
  const refresh = useRefreshAfterAuthorizing()
  return useMutation({
    mutationFn: (id: string) => call(transferEndpoints.cancel, { params: { id } }),
    onSettled: refresh,
  })
}

/** Mails the holder of an overdue transfer now (one an hour); the lists show the new `chasedAt`. */
export function useChaseTransfer() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => call(transferEndpoints.chase, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: transferKeys.all }),
  })
}

/** A manager approves or refuses a holder's request for more time; the lists show the new window. */
export function useDecideExtension() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { transferId: string; extensionId: string; decision: 'approve' | 'refuse' }) =>
      call(transferEndpoints.decideExtension, {
        params: { id: input.transferId, extensionId: input.extensionId },
        body: { decision: input.decision },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: transferKeys.all }),
  })
}

/** How a confirmation reaches the server: through the device's outbox, composed in by the route. */
export type ConfirmPickup = (
  transfer: Transfer,
  idempotencyKey: string,
  /** A first pickup's acceptance by the recipient: the handover receipt. */
  acceptance?: Acceptance,
) => Promise<{ transfer: Transfer; queued: boolean }>

/**
 * Confirms a pickup or return through `send`. Custody, lists and counts all move with it: every query is
 * refetched in the background, while the caller shows the answer at once.
 */
export function useConfirmPickup(send: ConfirmPickup) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({
      transfer,
      idempotencyKey,
      acceptance,
    }: {
      transfer: Transfer
      idempotencyKey: string
      acceptance?: Acceptance
    }) => send(transfer, idempotencyKey, acceptance),
    onSuccess: () => void queryClient.invalidateQueries(),
  })
}
