import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
import type { StocktakeDetail } from '../../../contract/stocktakes.ts'
import type { HookRef } from '../../../contract/whereabouts.ts'
import {
  reportScansMade,
  stocktakeBoardsQuery,
  stocktakeQuery,
  stocktakeReportHref,
  useCloseStocktake,
} from '../../api/stocktakes.ts'
import { useAbility } from '../../lib/ability.tsx'
import { formatDateTime } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'
import type { FieldContext } from '../../offline/field.ts'
import { Badge } from '../../ui/Badge.tsx'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { PageHeader } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { withLocalScans } from './local-tally.ts'
import { ScanPanel } from './ScanPanel.tsx'
import { StocktakeLists } from './StocktakeLists.tsx'
import { TallyStrip } from './TallyStrip.tsx'
import { useLocalScans } from './useLocalScans.ts'

/** The scope's hooks by their label's public id, from its boards' pages (kept by the query cache offline). */
function useHookIndex(organizationId: string, detail: StocktakeDetail | undefined): Map<string, HookRef> {
  const boardIds = detail?.status === 'OPEN' ? detail.boards.map((board) => board.place.id) : []
  const boards = useQuery({
    ...stocktakeBoardsQuery(organizationId, detail?.id ?? '', boardIds),
    enabled: boardIds.length > 0,
  })
  return useMemo(() => {
    const index = new Map<string, HookRef>()
    for (const board of boards.data ?? []) {
      for (const hook of board.hooks) {
        index.set(hook.publicId, { id: hook.id, code: hook.code, placeId: board.id, placeName: board.name })
      }
    }
    return index
  }, [boards.data])
}

/** Tells the server how many scans this device made for the stocktake, whenever that count may have changed. */
function useScansMadeReport(id: string, open: boolean, unsent: number) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change in the unsent count is what calls for a report
  useEffect(() => {
    if (!open) return
    void (async () => {
      const { deviceId, scansMade } = await import('../../offline/stocktake.ts')
      const made = await scansMade(id)
      if (made > 0) await reportScansMade(id, await deviceId(), made).catch(() => undefined)
    })()
  }, [id, open, unsent])
}

/**
 * `/app/stocktakes/$id`: the tally of a stocktake as the server has it, with this device's unsent scans counted
 * in; scanning while it is open; closing it (managers) once no device has scans on the way; its report once closed.
 */
export function StocktakeScreen({ context, id }: { context: FieldContext; id: string }) {
  const { t } = useLingui()
  const locale = useLocale()
  const ability = useAbility()
  const failed = useFailureToast()
  const query = useQuery(stocktakeQuery(context.organizationId, id))
  const detail = query.data
  const { unsent, scans } = useLocalScans(context.userId, context.organizationId, id)
  const hooks = useHookIndex(context.organizationId, detail)
  const tally = useMemo(() => (detail ? withLocalScans(detail, scans) : null), [detail, scans])
  const close = useCloseStocktake(context.organizationId, id)
  const open = detail?.status === 'OPEN'
  useScansMadeReport(id, open, unsent.length)

  if (query.isPending) return <LoadingState label={<Trans>Loading the stocktake…</Trans>} />
  if (!detail || !tally) {
    return (
      <ErrorState
        message={<Trans>The stocktake could not be loaded.</Trans>}
        onRetry={() => void query.refetch()}
      />
    )
  }
  const scope = detail.scope?.name ?? t`the whole organization`
  const onClose = async () => {
    try {
      await close.mutateAsync()
    } catch (error) {
      await failed(t`The stocktake could not be closed.`, error)
    }
  }

  return (
    <>
      <PageHeader title={<Trans>Stocktake of {scope}</Trans>}>
        <Badge tone={open ? 'warning' : 'success'}>
          {open ? <Trans>Open</Trans> : <Trans>Closed</Trans>}
        </Badge>
      </PageHeader>
      <p className="mb-4 text-sm text-slate-700">
        {detail.closedAt ? (
          <Trans>
            Started {formatDateTime(detail.startedAt, locale)}, closed{' '}
            {formatDateTime(detail.closedAt, locale)}.
          </Trans>
        ) : (
          <Trans>Started {formatDateTime(detail.startedAt, locale)}.</Trans>
        )}
      </p>
      <TallyStrip counts={tally.counts} closed={!open} />
      {unsent.length > 0 ? (
        <p role="status" className="mb-4 rounded-lg bg-amber-50 p-3 text-amber-900">
          <Plural
            value={unsent.length}
            one="# scan of this device is not sent yet: it is counted here and sent when the network is back."
            other="# scans of this device are not sent yet: they are counted here and sent when the network is back."
          />
        </p>
      ) : null}
      <div className="mb-6 flex flex-col gap-4">
        {open && ability.can('scan', 'stocktake') ? (
          <ScanPanel context={context} stocktakeId={id} hooks={hooks} />
        ) : null}
        {open && ability.can('update', 'stocktake') ? (
          <div className="flex flex-wrap items-center gap-3">
            <Button
              variant="secondary"
              onPress={() => void onClose()}
              isDisabled={unsent.length > 0 || close.isPending}
            >
              <Trans>Close the stocktake</Trans>
            </Button>
            <span className="text-sm text-slate-700">
              {unsent.length > 0 ? (
                <Trans>Close it once this device’s scans are sent.</Trans>
              ) : (
                <Trans>What has not been found by then is reported missing.</Trans>
              )}
            </span>
          </div>
        ) : null}
        {open ? null : (
          <div className="flex flex-wrap gap-2">
            <a href={stocktakeReportHref(id, 'pdf')} className={buttonClass('secondary')} download>
              <Trans>Report (PDF)</Trans>
            </a>
            <a href={stocktakeReportHref(id, 'csv')} className={buttonClass('secondary')} download>
              <Trans>Report (CSV)</Trans>
            </a>
          </div>
        )}
      </div>
      <StocktakeLists detail={detail} items={tally.items} />
    </>
  )
}
