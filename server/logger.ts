import { type DestinationStream, type Logger, pino } from 'pino'
import type { Config } from './config.ts'

const EMAIL = /[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g
const EMAIL_MASK = '[email]'

/** Replaces anything that looks like an e-mail address. */
export function maskEmails(text: string): string {
  return text.replace(EMAIL, EMAIL_MASK)
}

type Serialized = { [key: string]: unknown }

/** Drizzle appends the query's parameters (addresses, names, phone numbers…) to its error messages. */
const maskErrorText = (text: string) => maskEmails(text.replace(/\nparams: .*/g, '\nparams: [hidden]'))

/**
 * An error as name, code, message and stack with addresses masked, plus its cause. Libraries put addresses
 * and SQL parameters in other fields too (nodemailer's `rejected`/`response`, drizzle's `params`, pg's
 * `detail`): those are left out on purpose.
 */
function serializeError(error: unknown, depth = 0): Serialized {
  if (!(error instanceof Error)) return { message: maskEmails(String(error)) }
  const code = (error as { code?: unknown }).code
  const out: Serialized = {
    type: error.name === 'Error' ? error.constructor.name : error.name,
    message: maskErrorText(error.message),
    stack: error.stack ? maskErrorText(error.stack) : undefined,
  }
  if (typeof code === 'string' || typeof code === 'number') out.code = code
  if (error.cause !== undefined && depth < 3) out.cause = serializeError(error.cause, depth + 1)
  return out
}

const SECRET_MASK = '[secret]'

/**
 * A field that holds a credential whatever logged it: a request's or answer's headers (`authorization`,
 * `cookie`, `set-cookie`, `stripe-signature`), or a value named as one (`token`, `metricsToken`,
 * `webhookSecret`, `password`). Ids and hashes of them (`tokenId`, `tokenHash`) are not secrets.
 */
const SECRET_FIELD =
  /^(?:(?:proxy-)?authorization|cookie|set-cookie|stripe-signature|.*(?:token|secret|secretkey|password))$/i

/** Every string of a log object, however deep, with addresses masked and credentials hidden. */
function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskEmails(value)
  if (value instanceof Error) return serializeError(value)
  if (value === null || typeof value !== 'object' || value instanceof Date) return value
  if (depth > 6) return '[deep]'
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1))
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      SECRET_FIELD.test(key) && item != null ? SECRET_MASK : scrub(item, depth + 1),
    ]),
  )
}

/**
 * JSON lines on stdout. Request logs carry method, path (never the query string, which may hold a sign-in
 * token; secret path parameters by name only), status, duration and user id; never tokens, codes or cookies,
 * and a field named as a credential is masked whoever logs it. E-mail addresses are masked in every message
 * and field, including errors from the mailer or the database that embed them.
 */
export function createLogger(level: Config['logLevel'], destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: (error: unknown) => scrub(error) },
      formatters: { log: (object) => scrub(object) as Record<string, unknown> },
      hooks: {
        logMethod(args, method) {
          // `log.error(error)` would take the raw message as the log line's msg.
          const [first, ...rest] = args as unknown[]
          const normalized =
            first instanceof Error ? [{ err: first }, ...(rest.length > 0 ? rest : [first.message])] : args
          const masked = normalized.map((arg) => (typeof arg === 'string' ? maskErrorText(arg) : arg))
          return method.apply(this, masked as Parameters<typeof method>)
        },
      },
    },
    destination,
  )
}
