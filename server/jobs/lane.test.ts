import { describe, expect, it } from 'vitest'
import { type JobLane, laneLoop } from './lane.ts'
import type { ClaimedJob, ClaimScope } from './queue.ts'

/** A lane over an in-memory queue that claims as `claimJobs` does: in scope, one per organization a claim. */
function lane(spec: Partial<JobLane>, due: { id: string; organizationId: string | null; kind?: string }[]) {
  const waiting = due.map((job) => ({ kind: 'mail', ...job }))
  const claims: { limit: number; scope: ClaimScope }[] = []
  const running = new Map<string, () => void>()
  const peak = new Map<string, number>()
  const now = new Map<string, number>()
  const loop = laneLoop({ name: 'test', slots: 3, perOrganization: 2, timeoutMs: 1000, ...spec }, ['hook'], {
    claim: async (limit, scope) => {
      claims.push({ limit, scope })
      const skip = new Set(scope.skipOrganizations ?? [])
      const taken: ClaimedJob[] = []
      for (const job of [...waiting]) {
        if (taken.length === limit || skip.has(job.organizationId)) continue
        if (scope.kinds && !scope.kinds.includes(job.kind)) continue
        if (scope.exceptKinds?.includes(job.kind)) continue
        if (taken.some((other) => other.organizationId === job.organizationId)) continue
        waiting.splice(waiting.indexOf(job), 1)
        taken.push({
          id: job.id,
          kind: job.kind,
          payload: {},
          organizationId: job.organizationId,
          attempts: 1,
          maxAttempts: 12,
        })
      }
      return taken
    },
    run: (job) =>
      new Promise<void>((resolve) => {
        const key = job.organizationId ?? ''
        now.set(key, (now.get(key) ?? 0) + 1)
        peak.set(key, Math.max(peak.get(key) ?? 0, now.get(key)!))
        running.set(job.id, () => {
          now.set(key, now.get(key)! - 1)
          resolve()
        })
      }),
    stopped: () => false,
  })
  const finish = async (id: string) => {
    running.get(id)!()
    running.delete(id)
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { loop, claims, running, peak, waiting, finish }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('a lane', () => {
  it('fills its slots, at most `perOrganization` of one organization, and gives a freed share to the next job', async () => {
    const a = 'org-a'
    const { loop, claims, running, peak, waiting, finish } = lane({}, [
      { id: 'a1', organizationId: a },
      { id: 'a2', organizationId: a },
      { id: 'a3', organizationId: a },
      { id: 'p1', organizationId: null },
      { id: 'hook', organizationId: null, kind: 'hook' },
    ])
    loop.kick()
    await settle()
    // Three slots: A's oldest and the platform's job in one claim (one per organization), then A's second.
    expect([...running.keys()].sort()).toEqual(['a1', 'a2', 'p1'])
    expect(claims[0]).toEqual({
      limit: 3,
      scope: { exceptKinds: ['hook'], perOrganization: 1, skipOrganizations: [] },
    })
    // The platform's job ends: its slot is free, but A still holds its share of two.
    await finish('p1')
    expect([...running.keys()].sort()).toEqual(['a1', 'a2'])
    expect(claims.at(-1)).toEqual({
      limit: 1,
      scope: { exceptKinds: ['hook'], perOrganization: 1, skipOrganizations: [a] },
    })
    // One of A's ends: A has room for one more, and takes it.
    await finish('a1')
    expect([...running.keys()].sort()).toEqual(['a2', 'a3'])
    expect(peak.get(a)).toBe(2)
    await finish('a2')
    await finish('a3')
    await loop.loop
    expect(loop.loop).toBeNull()
    expect(loop.started).toBe(4)
    // The hook is another lane's.
    expect(waiting.map((job) => job.id)).toEqual(['hook'])
  })

  it('skips the platform’s jobs as null once they hold their share, and runs only its own kinds', async () => {
    const { loop, claims, running, finish } = lane({ kinds: ['hook'], perOrganization: 1 }, [
      { id: 'h1', organizationId: null, kind: 'hook' },
      { id: 'h2', organizationId: null, kind: 'hook' },
      { id: 'm1', organizationId: null },
    ])
    loop.kick()
    await settle()
    expect([...running.keys()]).toEqual(['h1'])
    expect(claims.at(-1)?.scope).toEqual({ kinds: ['hook'], perOrganization: 1, skipOrganizations: [null] })
    await finish('h1')
    expect([...running.keys()]).toEqual(['h2'])
    await finish('h2')
    await loop.loop
    expect(loop.started).toBe(2)
  })
})
