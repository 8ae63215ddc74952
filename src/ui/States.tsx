import { Trans } from '@lingui/react/macro'
import { CircleAlert, Inbox, LoaderCircle, WifiOff } from 'lucide-react'
import type { ReactNode } from 'react'
import { Button } from './Button.tsx'

export function LoadingState({ label }: { label: ReactNode }) {
  return (
    <div role="status" className="flex items-center gap-3 py-10 text-slate-700">
      <LoaderCircle aria-hidden className="size-5 animate-spin" />
      {label}
    </div>
  )
}

export function ErrorState({
  message,
  onRetry,
  offline = false,
}: {
  message: ReactNode
  onRetry?: () => void
  offline?: boolean
}) {
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
