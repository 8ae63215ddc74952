import { expect } from 'vitest'
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

/**
 * The answers to one request sent again under its key: the first is the original, each other one its replay.
 * Answers the body they all share.
 */
export async function expectOneAnswerReplayed(answers: Response[], status = 201): Promise<unknown> {
  expect(answers.map((response) => response.status)).toEqual(answers.map(() => status))
  expect(answers.map((response) => response.headers.get('idempotent-replayed'))).toEqual(
    answers.map((_, index) => (index === 0 ? null : 'true')),
  )
  const bodies = await Promise.all(answers.map((response) => response.json()))
  for (const body of bodies) expect(body).toEqual(bodies[0])
  return bodies[0]
}
