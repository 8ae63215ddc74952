import { describe, expect, it } from 'vitest'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { createTags, MAX_TAG_NUMBER } from '../tags/service.ts'
import { orderTagNumbers, TagNumbersExhausted } from './tag-numbers.ts'

const t = setupTestApp()
const look = { name: 'Cave', foregroundColor: '#111111', backgroundColor: '#ffffff' }

/** An organization holding tags of `alphaCode` with these numbers (runs of consecutive numbers). */
async function holding(alphaCode: string, runs: Array<[first: number, count: number]>) {
  const { organization } = await organizationWithAdmin(t)
  for (const [startNumber, count] of runs)
    await createTags(t.db, organization.id, { alphaCode, startNumber, count, ...look }, t.clock.now())
  return organization.id
}

const from = (first: number, count: number) => Array.from({ length: count }, (_, index) => first + index)

describe('the numbers a paid tag order line gets (orderTagNumbers)', () => {
  it('keeps the range asked when it is free, whatever other codes and organizations hold', async () => {
    const organizationId = await holding('ABC', [[1, 5]])
    const other = await holding('DEM', [[1, 5]])
    expect(
      await orderTagNumbers(t.db, organizationId, { alphaCode: 'DEM', startNumber: 1, count: 3 }),
    ).toEqual([1, 2, 3])
    expect(await orderTagNumbers(t.db, other, { alphaCode: 'ABC', startNumber: 1, count: 2 })).toEqual([1, 2])
  })

  it('continues after the highest number, or after the numbers earlier lines reserved, when the range is taken', async () => {
    const organizationId = await holding('DEM', [
      [1, 3],
      [40, 2],
    ])
    // DEM-00002 is taken: after DEM-00041.
    expect(
      await orderTagNumbers(t.db, organizationId, { alphaCode: 'DEM', startNumber: 2, count: 2 }),
    ).toEqual([42, 43])
    // Free in the table, but an earlier line of the cart takes 10 and 50: after 50.
    expect(
      await orderTagNumbers(t.db, organizationId, { alphaCode: 'DEM', startNumber: 10, count: 2 }, [10, 50]),
    ).toEqual([51, 52])
    // A reservation outside the range leaves it as asked.
    expect(
      await orderTagNumbers(t.db, organizationId, { alphaCode: 'DEM', startNumber: 10, count: 2 }, [12]),
    ).toEqual([10, 11])
  })

  it('never numbers past 99999: a range that would end beyond it starts after the highest instead', async () => {
    const organizationId = await holding('DEM', [[1, 2]])
    expect(
      await orderTagNumbers(t.db, organizationId, {
        alphaCode: 'DEM',
        startNumber: MAX_TAG_NUMBER - 1,
        count: 3,
      }),
    ).toEqual([3, 4, 5])
    // Ending exactly at 99999 is still the range asked.
    expect(
      await orderTagNumbers(t.db, organizationId, {
        alphaCode: 'DEM',
        startNumber: MAX_TAG_NUMBER - 2,
        count: 3,
      }),
    ).toEqual(from(MAX_TAG_NUMBER - 2, 3))
  })

  it('takes the lowest free numbers, reserved ones left out, once the highest leaves no room after it', async () => {
    const organizationId = await holding('DEM', [
      [1, 3],
      [MAX_TAG_NUMBER - 4, 1],
    ])
    // After 99995 only 99996–99999 remain: four fit there…
    expect(
      await orderTagNumbers(t.db, organizationId, { alphaCode: 'DEM', startNumber: 1, count: 4 }),
    ).toEqual(from(MAX_TAG_NUMBER - 3, 4))
    // …five do not: the lowest free ones, in order.
    expect(
      await orderTagNumbers(t.db, organizationId, { alphaCode: 'DEM', startNumber: 1, count: 5 }),
    ).toEqual([4, 5, 6, 7, 8])
    expect(
      await orderTagNumbers(t.db, organizationId, { alphaCode: 'DEM', startNumber: 1, count: 5 }, [4, 6]),
    ).toEqual([5, 7, 8, 9, 10])
  })

  it('says the code is exhausted when fewer numbers than asked are free, and gives the last ones when just enough are', async () => {
    const organizationId = await holding('DEM', [
      [1, 3],
      [MAX_TAG_NUMBER - 4, 1],
    ])
    // Earlier lines reserve 4–99990: free are 99991–99994 and 99996–99999, eight numbers.
    const reserved = from(4, MAX_TAG_NUMBER - 9 - 3)
    const line = { alphaCode: 'DEM', startNumber: 1 }
    expect(await orderTagNumbers(t.db, organizationId, { ...line, count: 8 }, reserved)).toEqual([
      ...from(MAX_TAG_NUMBER - 8, 4),
      ...from(MAX_TAG_NUMBER - 3, 4),
    ])
    const refused = orderTagNumbers(t.db, organizationId, { ...line, count: 9 }, reserved)
    await expect(refused).rejects.toBeInstanceOf(TagNumbersExhausted)
    await expect(refused).rejects.toThrow('no 9 free tag numbers left for DEM')
  })
})
