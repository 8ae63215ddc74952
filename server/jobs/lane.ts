import type { ClaimedJob, ClaimScope, claimJobs } from './queue.ts'

/**
 * A lane runs some kinds of jobs with slots of their own, so that jobs that wait on the outside world
 * (webhooks: any organization's slowest server) never hold up the others (mail, reminders).
 */
export type JobLane = {
  /** For logs. */
  name: string
  /** The kinds it runs; one lane has none and runs every kind the other lanes do not name. */
  kinds?: readonly string[]
  /** Jobs it runs at once, in this process. */
  slots: number
  /** Of those, at most this many of one organization: an organization whose jobs hang waits for itself only. */
  perOrganization: number
  /** An attempt still running after this long counts as failed, and its slot goes to the next job. */
  timeoutMs: number
}

type LaneDeps = {
  claim: (limit: number, scope: ClaimScope) => ReturnType<typeof claimJobs>
  run: (job: ClaimedJob, lane: JobLane) => Promise<void>
  stopped: () => boolean
}

type LaneLoop = {
  /** Claims what its free slots can take now, and again whenever a job ends, until nothing is due and none runs. */
  kick(): void
  /** The loop under way, if any: it resolves once the lane is idle. */
  readonly loop: Promise<void> | null
  /** Jobs this lane has started since it was made. */
  readonly started: number
}

const organizationKey = (job: ClaimedJob) => job.organizationId ?? ''

export function laneLoop(lane: JobLane, otherKinds: readonly string[], deps: LaneDeps): LaneLoop {
  const running = new Set<Promise<void>>()
  /** Jobs running per organization ('' for platform jobs). */
  const perOrganization = new Map<string, number>()
  let started = 0
  let loop: Promise<void> | null = null
  let woken = false
  let wake = () => {}
  const rouse = () => {
    woken = true
    wake()
  }

  const kindScope: ClaimScope = lane.kinds ? { kinds: lane.kinds } : { exceptKinds: otherKinds }

  function launch(job: ClaimedJob) {
    const key = organizationKey(job)
    perOrganization.set(key, (perOrganization.get(key) ?? 0) + 1)
    started += 1
    const run: Promise<void> = deps.run(job, lane).finally(() => {
      running.delete(run)
      const left = (perOrganization.get(key) ?? 1) - 1
      if (left === 0) perOrganization.delete(key)
      else perOrganization.set(key, left)
      // A claim under way may have left this organization out while the job ran: the lane claims again.
      rouse()
    })
    running.add(run)
  }

  /** Claims until the slots are full or nothing more is due for the organizations that have room. */
  async function fill() {
    while (!deps.stopped() && running.size < lane.slots) {
      const full = [...perOrganization].filter(([, count]) => count >= lane.perOrganization)
      const batch = await deps.claim(lane.slots - running.size, {
        ...kindScope,
        perOrganization: 1,
        skipOrganizations: full.map(([key]) => (key === '' ? null : key)),
      })
      if (batch.length === 0) return
      for (const job of batch) launch(job)
    }
  }

  async function untilIdle() {
    for (;;) {
      woken = false
      const nudged = new Promise<void>((resolve) => {
        wake = resolve
      })
      await fill()
      // Stryker disable next-line ConditionalExpression: with nothing running and no nudge, waiting would never end
      if (running.size === 0 && !woken) return
      if (woken) continue
      // A job ended (its slot and maybe its organization's share are free) or new jobs were committed.
      await nudged
    }
  }

  return {
    kick() {
      if (loop) return rouse()
      const current = untilIdle().finally(() => {
        loop = null
      })
      // Whoever waits for the drain sees a failure; a loop nobody waits for must not be an unhandled rejection.
      current.catch(() => undefined)
      loop = current
    },
    get loop() {
      return loop
    },
    get started() {
      return started
    },
  }
}
