import type { Clock } from '../../server/clock.ts'

export const TEST_EPOCH = new Date('2030-01-15T09:00:00.000Z')

/** A clock that only moves when told to. */
export class TestClock implements Clock {
  #now: Date

  constructor(start: Date = TEST_EPOCH) {
    this.#now = new Date(start)
  }

  now(): Date {
    return new Date(this.#now)
  }

  set(date: Date | string): void {
    this.#now = new Date(date)
  }

  advance(ms: number): Date {
    this.#now = new Date(this.#now.getTime() + ms)
    return this.now()
  }
}

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR
