import type { StocktakeCounts, StocktakeDetail, StocktakeItem } from '../../../contract/stocktakes.ts'

/**
 * A scan this device made that the server has not had yet, as the device reads it: the keychain its tag names
 * in the mirror (null: unknown here) and the hook it was scanned on; or a hook label (it counts nothing).
 */
export type LocalScan = { kind: 'hook' } | { kind: 'tag'; keychainId: string | null; hookId: string | null }

export type LocalTally = {
  counts: StocktakeCounts
  items: StocktakeItem[]
  /** Scans of this device counted here that the server has not counted yet. */
  waiting: number
}

/**
 * The server's last tally with this device's unsent scans counted in, by the server's rules: an expected
 * keychain not yet seen is found (on its hook, or with no hook scanned) or misplaced (on another hook); one
 * already seen counts once; any other keychain or an unknown tag is unexpected. Only the server's answer is
 * the result: this is what the screen shows until it comes.
 */
export function withLocalScans(detail: StocktakeDetail, scans: readonly LocalScan[]): LocalTally {
  const items = new Map(detail.items.map((item) => [item.keychain.id, item]))
  const seenUnexpected = new Set(
    // Stryker disable next-line ArrayDeclaration: an unknown value names no keychain, and no scan has that id
    detail.unexpected.flatMap((entry) => (entry.keychain ? [entry.keychain.id] : [])),
  )
  let unexpected = detail.counts.unexpected
  let waiting = 0
  for (const scan of scans) {
    if (scan.kind === 'hook') continue
    const item = scan.keychainId ? items.get(scan.keychainId) : undefined
    if (item) {
      if (item.state !== 'PENDING') continue
      const onItsHook = scan.hookId === null || scan.hookId === (item.expectedHook?.id ?? null)
      items.set(item.keychain.id, { ...item, state: onItsHook ? 'FOUND' : 'MISPLACED' })
      waiting += 1
      continue
    }
    if (scan.keychainId) {
      if (seenUnexpected.has(scan.keychainId)) continue
      seenUnexpected.add(scan.keychainId)
    }
    unexpected += 1
    waiting += 1
  }
  const all = [...items.values()]
  const count = (state: StocktakeItem['state']) => all.filter((item) => item.state === state).length
  return {
    counts: {
      expected: all.length,
      found: count('FOUND'),
      misplaced: count('MISPLACED'),
      missing: count('PENDING') + count('MISSING'),
      unexpected,
    },
    items: all,
    waiting,
  }
}
