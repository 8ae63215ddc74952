import { Trans, useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { TRANSFER_STATUSES, type TransferStatus } from '../../../contract/transfers.ts'
import type { TransferFilter } from '../../api/transfers.ts'
import { buttonClass } from '../../ui/Button.tsx'
import { SelectField } from '../../ui/SelectField.tsx'
import { TRANSFER_STATUS_LABELS } from './labels.ts'

/** The list's orders, as one choice: the window's start or end, newest or oldest first. */
const SORTS = ['start-desc', 'start-asc', 'end-asc', 'end-desc'] as const
type SortChoice = (typeof SORTS)[number]

const sortChoiceOf = (filter: TransferFilter): SortChoice =>
  `${filter.sort ?? 'start'}-${filter.order ?? 'desc'}` as SortChoice

/**
 * The transfer list's filters: quick ones (all, today, overdue) as toggle buttons, then the status, the expiry and
 * the order. Every change goes to the URL (a shared link shows the same list).
 */
export function TransferListFilters({
  filter,
  onChange,
}: {
  filter: TransferFilter
  onChange: (filter: TransferFilter) => void
}) {
  const { t, i18n } = useLingui()
  const quick: { id: TransferFilter['when']; label: ReactNode }[] = [
    { id: undefined, label: <Trans>All</Trans> },
    { id: 'today', label: <Trans>Today</Trans> },
    { id: 'overdue', label: <Trans>Overdue</Trans> },
  ]
  const sortLabels: Record<SortChoice, string> = {
    'start-desc': t`Latest start first`,
    'start-asc': t`Earliest start first`,
    'end-asc': t`Due back soonest first`,
    'end-desc': t`Due back latest first`,
  }
  return (
    <div className="mb-6 flex flex-col gap-4">
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">{t`Quick filters`}</legend>
        {quick.map((each) => {
          const active = filter.when === each.id
          return (
            <button
              key={each.id ?? 'all'}
              type="button"
              aria-pressed={active}
              className={buttonClass(active ? 'primary' : 'secondary')}
              onClick={() => onChange({ ...filter, when: each.id })}
            >
              {each.label}
            </button>
          )
        })}
      </fieldset>
      <div className="grid max-w-4xl gap-4 sm:grid-cols-3">
        <SelectField
          label={t`Status`}
          name="status"
          value={filter.status ?? ''}
          onChange={(value) => onChange({ ...filter, status: (value || undefined) as TransferStatus })}
          options={[
            { value: '', label: t`All statuses` },
            ...TRANSFER_STATUSES.map((status) => ({
              value: status,
              label: i18n._(TRANSFER_STATUS_LABELS[status]),
            })),
          ]}
        />
        <SelectField
          label={t`Expiry`}
          name="expired"
          value={filter.expired === undefined ? '' : String(filter.expired)}
          onChange={(value) => onChange({ ...filter, expired: value ? value === 'true' : undefined })}
          options={[
            { value: '', label: t`Expired or not` },
            { value: 'true', label: t`Expired only` },
            { value: 'false', label: t`Not expired` },
          ]}
        />
        <SelectField
          label={t`Sort by`}
          name="sort"
          value={sortChoiceOf(filter)}
          onChange={(value) => {
            const [sort, order] = value.split('-') as ['start' | 'end', 'asc' | 'desc']
            const byDefault = sort === 'start' && order === 'desc'
            onChange({ ...filter, sort: byDefault ? undefined : sort, order: byDefault ? undefined : order })
          }}
          options={SORTS.map((value) => ({ value, label: sortLabels[value] }))}
        />
      </div>
    </div>
  )
}
