import { randomUUID } from 'node:crypto'
import { asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { StocktakeDetail } from '../../../contract/stocktakes.ts'
import { organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { makeBoard } from '../../../tests/server/places.ts'
import { keychainsAtHome } from '../../../tests/server/stocktakes.ts'
import { stocktakeScans } from '../../db/schema.ts'

const t = setupTestApp()

type Scan = { key: string; deviceId: string; deviceSeq: number; value: string; hookId: string | null }

/**
 * Two devices stocktaking one board at once: their scans overlap (the same keychains seen by both), repeat
 * (a keychain scanned twice by one device), replay (the same scan sent twice under its key, both at once) and
 * name the same unknown value. Every request is sent at once (Promise.all). On PostgreSQL they really run
 * concurrently, each scan numbered and decided under the stocktake's row lock and each keychain changed by a
 * conditional UPDATE; PGlite runs them one at a time. Either way the result is the one the scans call for.
 */
describe('two devices scanning one stocktake at once', () => {
  it('give one consistent result, every scan counted once', async () => {
    const { organization, admin } = await organizationWithAdmin(t, 'Concurrence')
    const one = await signedInMember(t, organization.id, 'MEMBER')
    const two = await signedInMember(t, organization.id, 'MANAGER')
    const { board, hooks } = await makeBoard(t, organization.id, { count: 22 })
    const keychains = await keychainsAtHome(
      t,
      organization.id,
      hooks.map((hook) => hook.id),
    )
    const started = await t.post('/api/stocktakes', { cookie: admin.cookie, json: { placeId: board.id } })
    const stocktake = (await started.json()) as StocktakeDetail
    expect(stocktake.counts.expected).toBe(22)

    const plan = (
      deviceId: string,
      indexes: number[],
      extra: Array<Omit<Scan, 'key' | 'deviceId' | 'deviceSeq'>>,
    ) => {
      const scans: Scan[] = []
      for (const index of indexes) {
        const keychain = keychains[index]!
        scans.push({
          key: randomUUID(),
          deviceId,
          deviceSeq: scans.length + 1,
          value: keychain.tag.code,
          hookId: keychain.homeHookId,
        })
      }
      for (const scan of extra)
        scans.push({ ...scan, key: randomUUID(), deviceId, deviceSeq: scans.length + 1 })
      return scans
    }
    // Device one: keychains 0–14, 3 and 7 again; device two: 5–18, and 19 on hook 0 (misplaced), 10 again.
    const first = plan(
      '00000000-0000-4000-8000-000000000004',
      [...Array.from({ length: 15 }, (_, i) => i), 3, 7],
      [{ value: 'not-a-tag', hookId: null }],
    )
    const second = plan(
      '00000000-0000-4000-8000-000000000005',
      [...Array.from({ length: 14 }, (_, i) => i + 5), 10],
      [
        { value: keychains[19]!.tag.code, hookId: hooks[0]!.id },
        { value: 'not-a-tag', hookId: hooks[1]!.id },
      ],
    )
    // Replays: some scans of each device sent a second time, under the same key, at the same moment.
    const replays = [first[0]!, first[5]!, second[2]!, second[9]!]
    const send = (scan: Scan) =>
      t.post(`/api/stocktakes/${stocktake.id}/scans`, {
        cookie: scan.deviceId.startsWith('00000000-0000-4000-8000-000000000006') ? one.cookie : two.cookie,
        json: { value: scan.value, hookId: scan.hookId, deviceId: scan.deviceId, deviceSeq: scan.deviceSeq },
        headers: { 'idempotency-key': scan.key },
      })
    // Interleaved: one of each device's in turn, then the replays, all in flight together.
    const order: Scan[] = []
    for (let index = 0; index < Math.max(first.length, second.length); index += 1) {
      if (first[index]) order.push(first[index]!)
      if (second[index]) order.push(second[index]!)
    }
    const answers = await Promise.all([...order, ...replays].map(send))
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201))
    const bodies = await Promise.all(answers.map((answer) => answer.json()))
    // Each replay got the answer its key's first request got; exactly one of the two was the original.
    for (const replay of replays) {
      const indexes = [...order, ...replays].flatMap((scan, index) =>
        scan.key === replay.key ? [index] : [],
      )
      expect(indexes).toHaveLength(2)
      expect(bodies[indexes[0]!]).toEqual(bodies[indexes[1]!])
      const flags = indexes.map((index) => answers[index]!.headers.get('idempotent-replayed'))
      expect(flags.sort()).toEqual([null, 'true'].sort())
    }

    const read = (await (
      await t.get(`/api/stocktakes/${stocktake.id}`, { cookie: admin.cookie })
    ).json()) as StocktakeDetail
    expect(read.counts).toEqual({ expected: 22, found: 19, misplaced: 1, missing: 2, unexpected: 1 })
    expect(read.scanCount).toBe(first.length + second.length)
    expect(read.devices).toEqual([
      expect.objectContaining({
        deviceId: '00000000-0000-4000-8000-000000000004',
        made: first.length,
        received: first.length,
      }),
      expect.objectContaining({
        deviceId: '00000000-0000-4000-8000-000000000005',
        made: second.length,
        received: second.length,
      }),
    ])
    expect(
      read.items
        .filter((item) => item.state === 'PENDING')
        .map((item) => item.keychain.id)
        .sort(),
    ).toEqual([keychains[20]!.id, keychains[21]!.id].sort())
    const rows = await t.db
      .select()
      .from(stocktakeScans)
      .where(eq(stocktakeScans.stocktakeId, stocktake.id))
      .orderBy(asc(stocktakeScans.seq))
    // Numbered 1…n without a gap or a twin; each keychain counted by exactly one scan; the rest repeats.
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, index) => index + 1))
    const counted = rows.filter((row) => row.outcome === 'FOUND' || row.outcome === 'MISPLACED')
    expect(counted).toHaveLength(20)
    expect(new Set(counted.map((row) => row.keychainId)).size).toBe(20)
    expect(rows.filter((row) => row.outcome === 'UNKNOWN')).toHaveLength(1)
    // 10 keychains seen by both devices, 3 seen twice by one, the unknown value named twice.
    expect(rows.filter((row) => row.outcome === 'REPEATED')).toHaveLength(10 + 3 + 1)
    // Each answer's tally is one the stocktake really went through: found + misplaced never goes back.
    const reached = rows.map((row) => {
      const { counts } = (row.answer as { result: { counts: { found: number; misplaced: number } } }).result
      return counts.found + counts.misplaced
    })
    expect(reached).toEqual([...reached].sort((a, b) => a - b))
    expect(reached.at(-1)).toBe(20)
  })
})
