import { Trans } from '@lingui/react/macro'
import { AlarmClock, CalendarRange, EyeOff, UserRoundCheck } from 'lucide-react'
import type { ReactNode } from 'react'
import type { AppPath } from '../../lib/paths.ts'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { PageHeader } from '../../ui/Card.tsx'

type Report = { path: AppPath; icon: typeof AlarmClock; title: ReactNode; description: ReactNode }

const REPORTS: Report[] = [
  {
    path: '/app/reports/holdings',
    icon: UserRoundCheck,
    title: <Trans>Who holds what</Trans>,
    description: (
      <Trans>A person's keychains and keys, and the transfers open to them: print it when they leave.</Trans>
    ),
  },
  {
    path: '/app/reports/overdue',
    icon: AlarmClock,
    title: <Trans>Overdue transfers</Trans>,
    description: <Trans>Keychains picked up and not returned a day after they were due back.</Trans>,
  },
  {
    path: '/app/reports/unseen',
    icon: EyeOff,
    title: <Trans>Keychains not seen</Trans>,
    description: <Trans>Keychains none of whose tags was scanned for a number of days.</Trans>,
  },
  {
    path: '/app/reports/monthly',
    icon: CalendarRange,
    title: <Trans>Activity per month</Trans>,
    description: <Trans>Scans, transfers and changes, month by month.</Trans>,
  },
]

/** `/app/reports`: the organization's reports, each a screen and a CSV file. */
export function ReportsScreen() {
  const href = useHref()
  return (
    <>
      <PageHeader title={<Trans>Reports</Trans>} />
      <ul className="grid gap-4 sm:grid-cols-2">
        {REPORTS.map(({ path, icon: Icon, title, description }) => (
          <li key={path} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            <AppLink
              href={href(path)}
              className="flex items-center gap-2 font-semibold text-brand-800 hover:underline"
            >
              <Icon aria-hidden className="size-5 shrink-0" />
              {title}
            </AppLink>
            <p className="mt-2 text-sm text-slate-700">{description}</p>
          </li>
        ))}
      </ul>
    </>
  )
}
