import { chmod, mkdir } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'

// A backup holds every user's data: its file is its owner's alone (0600), and so is a folder made for it (0700).
// The modes are set after the fact, as the process's umask may have taken bits off those asked at creation.

export const PRIVATE_FILE = 0o600
const PRIVATE_DIR = 0o700

/** Makes `dir` and the folders above it that are missing, each 0700; folders that were there keep their mode. */
export async function makePrivateDirs(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: PRIVATE_DIR })
  if (first === undefined) return
  for (let path = resolve(dir); ; path = dirname(path)) {
    await chmod(path, PRIVATE_DIR)
    if (path === resolve(first)) return
  }
}

/** Makes a folder of backups, or makes it private again if it was there (an earlier version made it 0755). */
export async function makeBackupsDir(dir: string): Promise<void> {
  await makePrivateDirs(dir)
  await chmod(dir, PRIVATE_DIR)
}

export const makePrivateFile = (path: string) => chmod(path, PRIVATE_FILE)
