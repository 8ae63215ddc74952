import { Trans } from '@lingui/react/macro'
import { RefreshCw } from 'lucide-react'
import { formatPercent } from '../lib/format.ts'
import { useLocale } from '../lib/use-locale.ts'
import { useSyncProgress } from './sync-progress.ts'

/** How far the first full sync of the organization has come, while it runs (nothing otherwise). */
export function SyncProgressLine() {
  const locale = useLocale()
  const progress = useSyncProgress()
  if (!progress || progress.total === 0) return null
  const percent = formatPercent(progress.done / progress.total, locale)
  return (
    <span className="flex items-center gap-2 text-xs" data-testid="sync-progress" role="status">
      <RefreshCw aria-hidden className="size-4 motion-safe:animate-spin" />
      <Trans>Preparing offline use: {percent}</Trans>
    </span>
  )
}
