import { Plural, Trans } from '@lingui/react/macro'
import type { Leaver } from '../../contract/reports.ts'
import { personName } from '../lib/labels.ts'
import { useHref } from '../lib/use-locale.ts'
import { AppLink } from './AppLink.tsx'

/** People who left with keys, each with what they still have, linking to the report of what they hold. */
export function LeaversList({ leavers }: { leavers: readonly Leaver[] }) {
  const href = useHref()
  return (
    <ul className="flex flex-col gap-2 text-sm">
      {leavers.map((leaver) => (
        <li key={leaver.person.id} className="flex flex-wrap items-baseline gap-x-2">
          <AppLink
            href={href(`/app/reports/holdings?person=${leaver.person.id}`)}
            className="font-medium text-red-800 underline"
          >
            {personName(leaver.person)}
          </AppLink>
          <span className="text-slate-800">
            <Trans>
              left with <Plural value={leaver.keychains} one="# keychain" other="# keychains" />
            </Trans>
            {leaver.transfers > 0 ? (
              <>
                {' · '}
                <Plural value={leaver.transfers} one="# transfer open" other="# transfers open" />
              </>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  )
}
