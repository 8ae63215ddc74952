import { afterEach, describe, expect, it, vi } from 'vitest'
import { authEndpoints } from '../../contract/endpoints/auth.ts'
import type { Endpoint } from '../../contract/endpoints/endpoint.ts'
import { profileEndpoints } from '../../contract/endpoints/profile.ts'
import { createSession, deleteSession, getProfile, requestSignInMail } from './auth.ts'

const profile = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phoneNumber: '',
  locale: 'en',
  reminderMails: true,
  theme: 'system',
  isOperator: false,
  selectedOrganizationId: null,
  permissions: [],
}

afterEach(() => {
  vi.unstubAllGlobals()
})

/** The method and path each call sent. */
async function sent(calls: Array<() => Promise<unknown>>, answers: Array<() => Response>) {
  const fetchMock = vi.fn(async () => answers.shift()!())
  vi.stubGlobal('fetch', fetchMock)
  for (const each of calls) await each()
  return fetchMock.mock.calls.map((call) => {
    const [url, init] = call as unknown as [string, RequestInit]
    return `${init.method} ${url}`
  })
}

const operation = (spec: Endpoint) => `${spec.method.toUpperCase()} /api${spec.path}`
const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status })

// The sign-in calls write their paths out (see auth.ts): they are the operations the contract declares.
describe('the sign-in calls', () => {
  it('are the operations of the auth and profile tables', async () => {
    expect(
      await sent(
        [
          () => getProfile(),
          () => requestSignInMail('ada@example.org', 'en'),
          () => createSession({ email: 'ada@example.org', code: '123456' }),
          () => deleteSession(),
        ],
        [
          json(200, profile),
          json(202, { status: 'sent' }),
          json(201, profile),
          () => new Response(null, { status: 204 }),
        ],
      ),
    ).toEqual([
      operation(profileEndpoints.one),
      operation(authEndpoints.requestSignIn),
      operation(authEndpoints.signIn),
      operation(authEndpoints.signOut),
    ])
  })
})
