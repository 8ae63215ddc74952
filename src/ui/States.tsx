import { Trans } from '@lingui/react/macro'
import { CircleAlert, Inbox, LoaderCircle, WifiOff } from 'lucide-react'
import type { ReactNode } from 'react'
import { refusedWith } from '../lib/api.ts'
import { useHref } from '../lib/use-locale.ts'
import { AppLink } from './AppLink.tsx'
import { Button } from './Button.tsx'

export function LoadingState({ label }: { label: ReactNode }) {
  return (
    <div role="status" className="flex items-center gap-3 py-10 text-slate-700">
      <LoaderCircle aria-hidden className="size-5 animate-spin" />
      {label}
    </div>
  )
}

/** What the app shows for an address that names nothing (the server answered 404): no retry, a way out. */
export function NotFoundState() {
  const href = useHref()
  return (
    <div className="flex flex-col items-start gap-3 rounded-xl border border-slate-200 bg-white p-6">
      <h1 className="text-xl font-bold text-slate-900">
        <Trans>Page Not Found</Trans>
      </h1>
      <p className="text-slate-700">
        <Trans>What this address names does not exist, or is not shared with you.</Trans>
      </p>
      <AppLink href={href('/app')}>
        <Trans>Back to the dashboard</Trans>
      </AppLink>
    </div>
  )
}

/**
 * A load that failed: with a retry for what may work next time; the not-found view when the server said the
 * thing does not exist (`error` a 404), since retrying cannot help.
 */
export function ErrorState({
  message,
  onRetry,
  offline = false,
  error,
}: {
  message: ReactNode
  onRetry?: () => void
  offline?: boolean
  /** The failure itself: a 404 shows the not-found view. */
  error?: unknown
}) {
  if (refusedWith(error, 404)) return <NotFoundState />
  const Icon = offline ? WifiOff : CircleAlert
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-3 rounded-xl border border-red-200 bg-red-50 p-5 text-red-950"
    >
      <p className="flex items-center gap-2 font-medium">
        <Icon aria-hidden className="size-5 shrink-0" />
        {message}
      </p>
      {onRetry ? (
        <Button variant="secondary" onPress={onRetry}>
          <Trans>Try again</Trans>
        </Button>
      ) : null}
    </div>
  )
}

export function EmptyState({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <Inbox aria-hidden className="size-8 text-slate-500" />
      <p className="font-semibold text-slate-900">{title}</p>
      {children}
    </div>
  )
}
