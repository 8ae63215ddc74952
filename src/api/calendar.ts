import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { CalendarFeedScope } from '../../contract/calendar.ts'
import { calendarEndpoints } from '../../contract/endpoints/calendar.ts'
import { call } from '../lib/call.ts'

const calendarKey = ['calendar-feeds'] as const

/** My calendar feeds that still work (their addresses are shown only when made). */
export function useCalendarFeeds() {
  return useQuery({ queryKey: calendarKey, queryFn: () => call(calendarEndpoints.list) })
}

/** A new feed; its answer holds the address to give a calendar app, this once. */
export function useCreateCalendarFeed() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (scope: CalendarFeedScope) => call(calendarEndpoints.create, { body: { scope } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: calendarKey }),
  })
}

export function useRevokeCalendarFeed() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => call(calendarEndpoints.revoke, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: calendarKey }),
  })
}
