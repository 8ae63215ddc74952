import { Trans, useLingui } from '@lingui/react/macro'
import { type ReactNode, useState } from 'react'
import type { StocktakeDetail, StocktakeItem } from '../../../contract/stocktakes.ts'
import type { HookRef } from '../../../contract/whereabouts.ts'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button } from '../../ui/Button.tsx'

const hookName = (hook: HookRef | null) => (hook ? `${hook.code} · ${hook.placeName}` : '—')

/** Rows shown before "Show all": a long list would be drawn again with every scan. */
const FIRST_ROWS = 50

function Section({ title, rows }: { title: ReactNode; rows: ReactNode[] }) {
  const [all, setAll] = useState(false)
  if (rows.length === 0) return null
  const shown = all ? rows : rows.slice(0, FIRST_ROWS)
  return (
    <section className="mb-6">
      <h2 className="mb-2 text-lg font-semibold text-slate-900">
        {title} ({rows.length})
      </h2>
      <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">{shown}</ul>
      {shown.length < rows.length ? (
        <Button variant="secondary" className="mt-2" onPress={() => setAll(true)}>
          <Trans>Show all {rows.length}</Trans>
        </Button>
      ) : null}
    </section>
  )
}

function ItemRow({ item, where }: { item: StocktakeItem; where: ReactNode }) {
  const href = useHref()
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
      <AppLink href={href(`/app/keychains/${item.keychain.id}`)} className="font-semibold text-slate-900">
        {item.keychain.name}
      </AppLink>
      <span className="text-sm text-slate-700">{where}</span>
    </li>
  )
}

/** Per board, then what remains to find (or is missing), what is misplaced and what was not expected. */
export function StocktakeLists({ detail, items }: { detail: StocktakeDetail; items: StocktakeItem[] }) {
  const { t } = useLingui()
  const open = detail.status === 'OPEN'
  const remaining = items.filter((item) => item.state === 'PENDING' || item.state === 'MISSING')
  const misplaced = items.filter((item) => item.state === 'MISPLACED')
  return (
    <>
      {detail.boards.length > 0 ? (
        <section className="mb-6 overflow-x-auto">
          <h2 className="mb-2 text-lg font-semibold text-slate-900">
            <Trans>By board</Trans>
          </h2>
          <table className="w-full min-w-96 text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200 text-slate-700">
                <th className="py-2 pr-3 font-medium">{t`Board`}</th>
                <th className="py-2 pr-3 font-medium">{t`Found`}</th>
                <th className="py-2 pr-3 font-medium">{t`Misplaced`}</th>
                <th className="py-2 pr-3 font-medium">{open ? t`To find` : t`Missing`}</th>
                <th className="py-2 font-medium">{t`Unexpected`}</th>
              </tr>
            </thead>
            <tbody>
              {detail.boards.map((board) => (
                <tr key={board.place.id} className="border-b border-slate-100">
                  <td className="py-2 pr-3 font-medium text-slate-900">{board.place.name}</td>
                  <td className="py-2 pr-3 tabular-nums">{board.counts.found}</td>
                  <td className="py-2 pr-3 tabular-nums">{board.counts.misplaced}</td>
                  <td className="py-2 pr-3 tabular-nums">{board.counts.missing}</td>
                  <td className="py-2 tabular-nums">{board.counts.unexpected}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      <Section
        title={open ? <Trans>To find</Trans> : <Trans>Missing</Trans>}
        rows={remaining.map((item) => (
          <ItemRow
            key={item.keychain.id}
            item={item}
            where={<Trans>home {hookName(item.expectedHook)}</Trans>}
          />
        ))}
      />
      <Section
        title={<Trans>Misplaced</Trans>}
        rows={misplaced.map((item) => (
          <ItemRow
            key={item.keychain.id}
            item={item}
            where={
              <Trans>
                on {hookName(item.foundHook)}, home {hookName(item.expectedHook)}
              </Trans>
            }
          />
        ))}
      />
      <Section
        title={<Trans>Not expected here</Trans>}
        rows={detail.unexpected.map((entry) => (
          <li
            key={`${entry.value}-${entry.scannedAt}`}
            className="flex flex-wrap justify-between gap-2 px-4 py-3"
          >
            <span className="font-semibold text-slate-900">{entry.keychain?.name ?? entry.value}</span>
            <span className="text-sm text-slate-700">
              {entry.keychain ? <Trans>from elsewhere</Trans> : <Trans>unknown to the organization</Trans>}
              {entry.hook ? ` · ${hookName(entry.hook)}` : ''}
            </span>
          </li>
        ))}
      />
    </>
  )
}
