import { randomBytes } from 'node:crypto'
import { link, unlink, writeFile } from 'node:fs/promises'

/**
 * Writes `content` to `file` (mode 0600) unless it exists, whole or not at all: it is written aside, then linked
 * into place, which fails when the file is there. So of two processes starting together the first one's file
 * stays, and neither ever reads the other's half-written file.
 */
export async function writeOnce(file: string, content: string): Promise<void> {
  const aside = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`
  // Stryker disable next-line StringLiteral: the aside name is new (pid and 48 random bits), so 'wx' never refuses
  await writeFile(aside, content, { mode: 0o600, flag: 'wx' })
  // A link refused for another reason than EEXIST (a file system that writes files but refuses hard links)
  // cannot be made in a test here.
  // Stryker disable BlockStatement,ConditionalExpression
  try {
    await link(aside, file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  } finally {
    await unlink(aside)
  }
  // Stryker restore BlockStatement,ConditionalExpression
}
