import { type DestinationStream, type Logger, pino } from 'pino'
import type { Config } from './config.ts'

/**
 * JSON lines on stdout. Request logs carry method, path (never the query string, which may hold a sign-in
 * token), status, duration and user id; never e-mail addresses, tokens, codes or cookies.
 */
export function createLogger(level: Config['logLevel'], destination?: DestinationStream): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination)
}
