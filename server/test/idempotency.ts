import { type TestApp, uniqueEmail } from './harness.ts'

/** For the tests of `idempotent()`: a fresh signed-in caller, and a request of theirs under a key, made now. */
export function idempotencyCalls(t: TestApp) {
  return {
    caller: async () => (await t.signIn(uniqueEmail())).profile.id,
    request: (userId: string, key: string, payload: unknown = { value: 'a' }) => ({
      userId,
      key,
      request: 'POST /api/things',
      payload,
      now: t.clock.now(),
    }),
  }
}
