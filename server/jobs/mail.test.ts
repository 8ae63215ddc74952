import { describe, expect, it } from 'vitest'
import { TEST_EPOCH } from '../../tests/server/clock.ts'
import { MAIL_JOB, mailJob } from './mail.ts'

const message = { to: 'a@example.test', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' }

describe('a queued mail', () => {
  it("is a job of kind 'mail' (the kind stored in the jobs table, read again after a deploy), due at once", () => {
    expect(MAIL_JOB).toBe('mail')
    expect(mailJob(message, { now: TEST_EPOCH })).toEqual({
      kind: 'mail',
      payload: message,
      runAt: TEST_EPOCH,
      now: TEST_EPOCH,
      organizationId: null,
    })
  })

  it("carries its organization and dedupe key when it has them, and the message's four parts only", () => {
    const job = mailJob({ ...message, extra: 'dropped' } as typeof message, {
      now: TEST_EPOCH,
      organizationId: 'org-1',
      dedupeKey: 'mail:job:reader',
    })
    expect(job).toEqual({
      kind: 'mail',
      payload: message,
      runAt: TEST_EPOCH,
      now: TEST_EPOCH,
      organizationId: 'org-1',
      dedupeKey: 'mail:job:reader',
    })
  })
})
