import { Trans, useLingui } from '@lingui/react/macro'
import { CheckCircle2, Circle } from 'lucide-react'
import { type ReactNode, useId } from 'react'
import type { DashboardSetup } from '../../../contract/dashboard.ts'
import type { AppPath } from '../../lib/paths.ts'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'

type Step = { key: keyof DashboardSetup; path: AppPath; label: ReactNode }

/**
 * A new organization's first steps, each leading to where it is done and ticked once it is; gone when all are.
 */
export function SetupChecklist({ setup, organizationId }: { setup: DashboardSetup; organizationId: string }) {
  const { t } = useLingui()
  const id = useId()
  const href = useHref()
  const steps: Step[] = [
    { key: 'keychain', path: '/app/keychains/new', label: <Trans>Create a first keychain</Trans> },
    {
      key: 'tags',
      path: `/app/organizations/${organizationId}/new-order`,
      label: <Trans>Order tags for your keys</Trans>,
    },
    { key: 'member', path: `/app/organizations/${organizationId}`, label: <Trans>Invite a member</Trans> },
    { key: 'plan', path: '/app/plans', label: <Trans>Choose a plan</Trans> },
  ]
  const done = steps.filter((step) => setup[step.key]).length
  if (done === steps.length) return null
  const total = steps.length
  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-3 rounded-xl border border-brand-600 bg-white p-5 shadow-sm"
    >
      <h2 id={id} className="font-semibold text-slate-900">
        <Trans>Get started</Trans>
      </h2>
      <p className="text-sm text-slate-700">
        <Trans>
          Steps done: {done} of {total}
        </Trans>
      </p>
      <ol className="flex flex-col gap-1">
        {steps.map((step) => {
          const ticked = setup[step.key]
          return (
            <li key={step.key} className="flex min-h-11 items-center gap-3">
              {ticked ? (
                <CheckCircle2 aria-label={t`Done`} className="size-5 shrink-0 text-emerald-700" />
              ) : (
                <Circle aria-label={t`To do`} className="size-5 shrink-0 text-slate-500" />
              )}
              {ticked ? (
                <span className="text-slate-700 line-through">{step.label}</span>
              ) : (
                <AppLink
                  href={href(step.path)}
                  className="inline-flex min-h-11 items-center font-medium text-brand-800 hover:underline"
                >
                  {step.label}
                </AppLink>
              )}
            </li>
          )
        })}
      </ol>
    </section>
  )
}
