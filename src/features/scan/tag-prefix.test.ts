import { describe, expect, it } from 'vitest'
import { prefixOfBuckets } from './tag-prefix.ts'

const ORG = 'org-1'

describe("the scan field's example in the organization's tag prefix", () => {
  it('is the prefix of most of its tag buckets, in this organization only', () => {
    expect(
      prefixOfBuckets(
        [`${ORG}|AGC|0`, `${ORG}|AGC|1`, `${ORG}|BUR|0`, 'org-2|ZZZ|0', 'org-2|ZZZ|1', 'org-2|ZZZ|2'],
        ORG,
      ),
    ).toBe('AGC')
  })

  it('takes the first in order on a tie, and skips codes outside the pattern (no block)', () => {
    expect(prefixOfBuckets([`${ORG}|BUR|0`, `${ORG}|AGC|3`, `${ORG}|odd-code`], ORG)).toBe('AGC')
    expect(prefixOfBuckets([`${ORG}|odd-code`], ORG)).toBeNull()
  })

  it('is null for an organization without tags on this device', () => {
    expect(prefixOfBuckets([], ORG)).toBeNull()
    expect(prefixOfBuckets(['org-2|AGC|0'], ORG)).toBeNull()
  })
})
