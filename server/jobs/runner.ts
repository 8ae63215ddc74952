import type { Logger } from 'pino'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/client.ts'
import { type ClaimedJob, claimJobs, markDeferred, markDone, markFailed, newWorkerId } from './queue.ts'

/** What a handler may answer: nothing (done), or "not before" (quiet hours…), which costs no attempt. */
export type JobOutcome = undefined | { deferUntil: Date }
export type JobHandler = (job: ClaimedJob) => Promise<JobOutcome>
export type JobHandlers = Readonly<Record<string, JobHandler>>

export type JobRunner = {
  /** Runs every job due by the clock, batch after batch, until none is left; resolves with how many ran. */
  drain(): Promise<number>
  /** A drain soon, for jobs a request has just committed (a mail to send now). */
  nudge(): void
  /** Drains every `pollMs` from now on (jobs that come due, retries, another process's jobs). */
  start(pollMs: number): void
  /** Stops polling and waits for the running drain. */
  stop(): Promise<void>
}

const BATCH = 10
const MINUTE = 60_000

type RunnerDeps = { database: Database; clock: Clock; logger: Logger }

/** The error's code or name only: an SMTP answer may quote an address, and logs hold ids only. */
const errorLabel = (error: unknown) =>
  error instanceof Error ? String((error as { code?: unknown }).code ?? error.name) : 'unknown'

export function createJobRunner(
  deps: RunnerDeps,
  handlers: JobHandlers,
  worker: string = newWorkerId(),
): JobRunner {
  const { db } = deps.database
  let current: Promise<number> | null = null
  // Stryker disable next-line BooleanLiteral: each pass of the drain's loop sets it false before it is read.
  let again = false
  let timer: ReturnType<typeof setInterval> | undefined
  // After stop(), a request finishing during the shutdown may still nudge: that must not start a drain.
  let stopped = false

  async function runOne(job: ClaimedJob): Promise<void> {
    try {
      const handler = handlers[job.kind]
      if (!handler) throw new Error(`No handler for jobs of kind ${job.kind}`)
      const outcome = await handler(job)
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

  async function drainOnce(): Promise<number> {
    let total = 0
    for (;;) {
      // Stopping (a shutdown): the jobs claimed run to the end, no more are claimed.
      if (stopped) return total
      const batch = await claimJobs(db, worker, deps.clock.now(), BATCH)
      if (batch.length === 0) return total
      for (const job of batch) await runOne(job)
      total += batch.length
    }
  }

  function drain(): Promise<number> {
    if (current) {
      again = true
      return current
    }
    current = (async () => {
      let total = 0
      try {
        do {
          again = false
          total += await drainOnce()
        } while (again)
      } finally {
        current = null
      }
      return total
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
