import { TAG_PUBLIC_ID_PATTERN } from './tags.ts'

export type ScanTarget =
  | { kind: 'publicId'; publicId: string }
  | { kind: 'code'; code: string }
  | { kind: 'none' }

const TAG_PATH = /^\/(?:en\/)?tags\/([A-Za-z2-7]{20})\/?$/
const CODE = /^[A-Za-z]{2,4}-\d{5}$/

/**
 * What a scanned or typed value names: a tag URL (any host: an old PUBLIC_URL or another deployment's QR still
 * reads; `/tags/<id>` or `/en/tags/<id>`), a bare public id, or a human code such as `agc-00042` (any case).
 */
export function parseScanValue(raw: string): ScanTarget {
  const value = raw.trim()
  if (/^https?:\/\//i.test(value)) {
    try {
      const match = TAG_PATH.exec(new URL(value).pathname)
      if (match?.[1]) return { kind: 'publicId', publicId: match[1].toLowerCase() }
    } catch {
      // not a URL after all
    }
    return { kind: 'none' }
  }
  const lower = value.toLowerCase()
  if (TAG_PUBLIC_ID_PATTERN.test(lower)) return { kind: 'publicId', publicId: lower }
  if (CODE.test(value)) return { kind: 'code', code: value.toUpperCase() }
  return { kind: 'none' }
}
