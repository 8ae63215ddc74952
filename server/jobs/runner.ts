import type { Logger } from 'pino'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/client.ts'
import { type JobLane, laneLoop } from './lane.ts'
import { type ClaimedJob, claimJobs, markDeferred, markDone, markFailed, newWorkerId } from './queue.ts'

/** What a handler may answer: nothing (done), or "not before" (quiet hours…), which costs no attempt. */
type JobOutcome = undefined | { deferUntil: Date }
export type JobHandler = (job: ClaimedJob) => Promise<JobOutcome>
export type JobHandlers = Readonly<Record<string, JobHandler>>

export type JobRunner = {
  /** Runs every job due by the clock, each lane on its own, until none is due; resolves with how many ran. */
  drain(): Promise<number>
  /** A drain soon, for jobs a request has just committed (a mail to send now). */
  nudge(): void
  /** Drains every `pollMs` from now on (jobs that come due, retries, another process's jobs). */
  start(pollMs: number): void
  /** Stops polling and waits for the running drain. */
  stop(): Promise<void>
}

const MINUTE = 60_000

/** The lane of every kind no other lane names, one job at a time per organization (alone, it runs every kind). */
export const MAIN_LANE: JobLane = { name: 'jobs', slots: 4, perOrganization: 1, timeoutMs: 2 * MINUTE }

type RunnerDeps = { database: Database; clock: Clock; logger: Logger }

/** The error's code or name only: an SMTP answer may quote an address, and logs hold ids only. */
const errorLabel = (error: unknown) =>
  error instanceof Error ? String((error as { code?: unknown }).code ?? error.name) : 'unknown'

class JobTimedOut extends Error {
  override name = 'JobTimedOut'
  constructor(timeoutMs: number) {
    super(`the attempt ran for more than ${timeoutMs} ms`)
  }
}

/** The handler's outcome, or JobTimedOut once `timeoutMs` have passed (the handler may go on, unheard). */
function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new JobTimedOut(timeoutMs)), timeoutMs)
  })
  work.catch(() => undefined)
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

export function createJobRunner(
  deps: RunnerDeps,
  handlers: JobHandlers,
  worker: string = newWorkerId(),
  lanes: readonly JobLane[] = [MAIN_LANE],
): JobRunner {
  const { db } = deps.database
  let current: Promise<number> | null = null
  let timer: ReturnType<typeof setInterval> | undefined
  // After stop(), a request finishing during the shutdown may still nudge: that must not start a drain.
  let stopped = false

  async function settle(job: ClaimedJob, lane: JobLane): Promise<void> {
    try {
      const handler = handlers[job.kind]
      if (!handler) throw new Error(`No handler for jobs of kind ${job.kind}`)
      const outcome = await withTimeout(handler(job), lane.timeoutMs)
      if (outcome) {
        // A deferral to now or earlier would be claimed again at once: it waits a minute at least.
        const floor = deps.clock.now().getTime() + MINUTE
        await markDeferred(db, job, worker, new Date(Math.max(outcome.deferUntil.getTime(), floor)))
      } else {
        await markDone(db, job, worker, deps.clock.now())
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      const spent = await markFailed(db, job, worker, deps.clock.now(), message)
      const fields = { jobId: job.id, kind: job.kind, attempts: job.attempts, error: errorLabel(error) }
      if (spent) deps.logger.error(fields, 'job failed for good')
      else deps.logger.warn(fields, 'job failed, retried later')
    }
  }

  /** Never rejects: a job whose outcome cannot be written keeps its lease, and runs again once it is over. */
  const run = (job: ClaimedJob, lane: JobLane) =>
    settle(job, lane).catch((error: unknown) =>
      deps.logger.error({ jobId: job.id, kind: job.kind, error: errorLabel(error) }, 'job outcome not saved'),
    )

  const named = lanes.flatMap((lane) => lane.kinds ?? [])
  const loops = lanes.map((lane) =>
    laneLoop(lane, named, {
      claim: (limit, scope) => claimJobs(db, worker, deps.clock.now(), limit, scope),
      run,
      stopped: () => stopped,
    }),
  )
  const startedCount = () => loops.reduce((sum, loop) => sum + loop.started, 0)

  function drain(): Promise<number> {
    for (const loop of loops) loop.kick()
    if (current) return current
    current = (async () => {
      const before = startedCount()
      try {
        // A lane that went idle may be kicked again (a nudge) while another still runs: wait for all of them.
        for (;;) {
          const running = loops.flatMap((loop) => (loop.loop ? [loop.loop] : []))
          if (running.length === 0) break
          await Promise.all(running)
        }
      } finally {
        current = null
      }
      return startedCount() - before
    })()
    return current
  }

  const drainLogged = () => {
    drain().catch((error: unknown) => deps.logger.error({ error: errorLabel(error) }, 'job drain failed'))
  }

  return {
    drain,
    nudge: () => {
      if (!stopped) setImmediate(drainLogged)
    },
    start(pollMs) {
      stopped = false
      if (timer) return
      timer = setInterval(drainLogged, pollMs)
      timer.unref()
      drainLogged()
    },
    async stop() {
      stopped = true
      if (timer) clearInterval(timer)
      timer = undefined
      await current?.catch(() => undefined)
    },
  }
}
