export const VERSION_POLL_MS = 3_600_000

/** True when the server now serves another build than the one running. Errors (offline) say no. */
export async function isNewerBuild(current: string = __APP_VERSION__): Promise<boolean> {
  try {
    const response = await fetch('/version.json', { cache: 'no-store' })
    if (!response.ok) return false
    const { version } = (await response.json()) as { version?: unknown }
    return typeof version === 'string' && version !== current
  } catch {
    return false
  }
}
