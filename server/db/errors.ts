/** PostgreSQL's unique_violation, possibly wrapped by drizzle (DrizzleQueryError keeps it as `cause`). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const {
      code,
      constraint: name,
      cause,
    } = current as { code?: unknown; constraint?: unknown; cause?: unknown }
    if (code === '23505') return constraint === undefined || name === constraint
    current = cause
  }
  return false
}
