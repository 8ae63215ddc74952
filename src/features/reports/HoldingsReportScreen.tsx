import { Trans, useLingui } from '@lingui/react/macro'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Printer } from 'lucide-react'
import { useEffect, useState } from 'react'
import { membersQuery } from '../../api/members.ts'
import { holdingsQuery, holdingTransfersQuery, leaversQuery, reportExportHref } from '../../api/reports.ts'
import { formatDate } from '../../lib/format.ts'
import { personName, ROLE_LABELS } from '../../lib/labels.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Button } from '../../ui/Button.tsx'
import { PageHeader } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { LeaversList } from '../../ui/LeaversList.tsx'
import { SelectField } from '../../ui/SelectField.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { ExportLink } from './ExportLink.tsx'
import { HeldKeychainsTable, OpenTransfersTable } from './HoldingsTables.tsx'

// Printed, only the report shows: not the menu, the picker or the buttons, on plain A4 pages.
const PRINT_CSS =
  '@page { size: A4; margin: 15mm } @media print { body * { visibility: hidden } .print-report, .print-report * { visibility: visible } .print-report { position: absolute; inset: 0 auto auto 0; width: 100% } }'

/** The report on one person: loads every page before printing, so the paper lists everything. */
function Holdings({ organizationId, person }: { organizationId: string; person: string }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const failed = useFailureToast()
  const [printing, setPrinting] = useState(false)
  const keychains = useInfiniteQuery(holdingsQuery(organizationId, person))
  const transfers = useInfiniteQuery(holdingTransfersQuery(organizationId, person))
  const everything = !keychains.hasNextPage && !transfers.hasNextPage
  // Printed once every page is on the screen (the last one rendered), not when it arrives.
  useEffect(() => {
    if (!printing || !everything) return
    setPrinting(false)
    window.print()
  }, [printing, everything])
  if (keychains.isPending || transfers.isPending)
    return <LoadingState label={<Trans>Loading the report…</Trans>} />
  if (keychains.isError || transfers.isError)
    return (
      <ErrorState
        message={<Trans>The report could not be loaded.</Trans>}
        error={keychains.error ?? transfers.error}
        onRetry={() => void Promise.all([keychains.refetch(), transfers.refetch()])}
      />
    )
  const member = keychains.data.pages[0]!.person
  const held = keychains.data.pages.flatMap((page) => page.data)
  const open = transfers.data.pages.flatMap((page) => page.data)
  const name = personName(member)
  const today = formatDate(new Date(), locale)
  const print = async () => {
    setPrinting(true)
    try {
      for (const query of [keychains, transfers]) {
        let more = query.hasNextPage
        while (more) more = (await query.fetchNextPage()).hasNextPage
      }
    } catch (error) {
      setPrinting(false)
      failed(t`The report could not be loaded.`, error)
    }
  }
  return (
    <div className="print-report flex flex-col gap-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 className="text-xl font-semibold text-slate-900">
          <Trans>What {name} holds</Trans>
        </h2>
        <p className="text-sm text-slate-700">
          {member.email} · {i18n._(ROLE_LABELS[member.role])} · <Trans>on {today}</Trans>
        </p>
      </div>
      <div className="flex flex-wrap gap-3 print:hidden">
        <Button onPress={() => void print()} isDisabled={printing}>
          <Printer aria-hidden className="size-4" />
          <Trans>Print</Trans>
        </Button>
        <ExportLink href={reportExportHref('holdingsExport', { person })} fileName="holdings.csv" />
      </div>
      <section className="flex flex-col gap-3 break-inside-avoid-page">
        <h3 className="font-semibold text-slate-900">
          <Trans>Keychains in their custody</Trans>
        </h3>
        <HeldKeychainsTable keychains={held} />
        {keychains.hasNextPage ? (
          <Button variant="secondary" onPress={() => void keychains.fetchNextPage()}>
            <Trans>Show more</Trans>
          </Button>
        ) : null}
      </section>
      <section className="flex flex-col gap-3">
        <h3 className="font-semibold text-slate-900">
          <Trans>Transfers open to them</Trans>
        </h3>
        <OpenTransfersTable transfers={open} />
        {transfers.hasNextPage ? (
          <Button variant="secondary" onPress={() => void transfers.fetchNextPage()}>
            <Trans>Show more</Trans>
          </Button>
        ) : null}
      </section>
    </div>
  )
}

/** Who left with keys: listed here until each keychain is back or in someone else's hands. */
function Leavers({ organizationId }: { organizationId: string }) {
  const leavers = useQuery(leaversQuery(organizationId))
  if (!leavers.data || leavers.data.data.length === 0) return null
  return (
    <section className="mb-6 flex flex-col gap-2 rounded-xl border border-red-200 bg-red-50 p-4 print:hidden">
      <h2 className="font-semibold text-red-900">
        <Trans>Left with keys</Trans>
      </h2>
      <LeaversList leavers={leavers.data.data} />
    </section>
  )
}

/** `/app/reports/holdings`: who holds what, one person at a time (chosen here, kept in the URL). */
export function HoldingsReportScreen({
  organizationId,
  person,
  onPersonChange,
}: {
  organizationId: string
  person: string | undefined
  onPersonChange: (person: string | undefined) => void
}) {
  const { t, i18n } = useLingui()
  const members = useQuery(membersQuery(organizationId))
  const options = (members.data ?? []).map((member) => ({
    value: member.id,
    label: `${personName(member)} (${i18n._(ROLE_LABELS[member.role])})`,
  }))
  return (
    <>
      <style>{PRINT_CSS}</style>
      <PageHeader title={<Trans>Who holds what</Trans>} />
      <Leavers organizationId={organizationId} />
      <div className="mb-6 max-w-md print:hidden">
        <SelectField
          label={t`Person`}
          name="person"
          value={person ?? ''}
          isDisabled={members.isPending}
          onChange={(value) => onPersonChange(value || undefined)}
          options={[{ value: '', label: t`Choose a person` }, ...options]}
        />
      </div>
      {person ? <Holdings key={person} organizationId={organizationId} person={person} /> : null}
    </>
  )
}
