import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Profile } from '../../contract/auth.ts'
import { profileKey } from '../api/profile.ts'
import { createQueryClient } from './query.ts'
import { restoreSession, setSignedInProfile } from './session.ts'

// Sign-out forgets the device's mirror through the field mode, loaded when needed: awaited here, so that its
// load never outlives the test that started it.
const forgetAccount = vi.hoisted(() => vi.fn(async () => undefined))
vi.mock('../offline/field-mode.ts', () => ({ forgetAccount }))

const profile = (id: string): Profile => ({
  id,
  email: `${id}@example.com`,
  firstName: '',
  lastName: '',
  phoneNumber: '',
  locale: 'fr',
  reminderMails: true,
  theme: 'system',
  isOperator: false,
  selectedOrganizationId: null,
  permissions: [],
})

const answer = (status: number, body: unknown = {}) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    ),
  )

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('the signed-in account on this device', () => {
  it("forgets the previous account's data when another account signs in", () => {
    const queryClient = createQueryClient()
    setSignedInProfile(queryClient, profile('a'))
    queryClient.setQueryData(['keychains'], ['of a'])
    setSignedInProfile(queryClient, profile('b'))
    expect(queryClient.getQueryData(['keychains'])).toBeUndefined()
    expect(queryClient.getQueryData<Profile>(profileKey)?.id).toBe('b')
  })

  it('keeps data when the same account signs in again', () => {
    const queryClient = createQueryClient()
    setSignedInProfile(queryClient, profile('a'))
    queryClient.setQueryData(['keychains'], ['of a'])
    setSignedInProfile(queryClient, profile('a'))
    expect(queryClient.getQueryData(['keychains'])).toEqual(['of a'])
  })

  it('forgets everything on sign-out, the mirror on the device too', async () => {
    const queryClient = createQueryClient()
    setSignedInProfile(queryClient, profile('a'))
    queryClient.setQueryData(['keychains'], ['of a'])
    forgetAccount.mockClear()
    setSignedInProfile(queryClient, null)
    expect(queryClient.getQueryData(['keychains'])).toBeUndefined()
    expect(queryClient.getQueryData(profileKey)).toBeNull()
    await vi.waitFor(() => expect(forgetAccount).toHaveBeenCalledOnce())
  })
})

describe('restoring the session at start-up', () => {
  it('signs out on 401, forgetting the cached account', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const queryClient = createQueryClient()
    queryClient.setQueryData(profileKey, profile('a'))
    queryClient.setQueryData(['keychains'], ['of a'])
    answer(401, { error: { code: 'unauthenticated', message: 'No session' } })
    await restoreSession(queryClient)
    expect(queryClient.getQueryData(profileKey)).toBeNull()
    expect(queryClient.getQueryData(['keychains'])).toBeUndefined()
  })

  it('keeps the last profile when the server answers 5xx or cannot be reached', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const queryClient = createQueryClient()
    queryClient.setQueryData(profileKey, profile('a'))
    answer(503, { error: { code: 'service_unavailable', message: 'Starting' } })
    await restoreSession(queryClient)
    expect(queryClient.getQueryData<Profile>(profileKey)?.id).toBe('a')
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch')
      }),
    )
    await restoreSession(queryClient)
    expect(queryClient.getQueryData<Profile>(profileKey)?.id).toBe('a')
  })

  it('ends signed out (not undecided) when there is nothing cached and the network fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const queryClient = createQueryClient()
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch')
      }),
    )
    await restoreSession(queryClient)
    expect(queryClient.getQueryData(profileKey)).toBeNull()
  })

  it('lets the query cache see a 401 of a call made while signed in', async () => {
    const onError = vi.fn()
    const queryClient = createQueryClient(onError)
    answer(401, { error: { code: 'unauthenticated', message: 'No session' } })
    await queryClient
      .fetchQuery({
        queryKey: ['x'],
        queryFn: () =>
          fetch('/api/x').then(async (r) => {
            if (!r.ok) throw Object.assign(new Error('401'), { status: r.status })
            return r.json()
          }),
      })
      .catch(() => undefined)
    expect(onError).toHaveBeenCalledTimes(1)
  })
})
