import { useLingui } from '@lingui/react/macro'
import type { TagCodeRange } from '../../contract/commerce.ts'
import { useLocale } from '../lib/use-locale.ts'

/** "DEM-00061 to DEM-00160" (or "à" in French), runs joined as the locale lists things; one code alone as is. */
export function useTagCodeRangesText(): (codes: readonly TagCodeRange[]) => string {
  const { t } = useLingui()
  const locale = useLocale()
  const list = new Intl.ListFormat(locale, { type: 'conjunction' })
  return (codes) =>
    list.format(codes.map(({ first, last, count }) => (count === 1 ? first : t`${first} to ${last}`)))
}
