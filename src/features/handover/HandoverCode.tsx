import { Trans, useLingui } from '@lingui/react/macro'
import { Copy } from 'lucide-react'
import { lazy, Suspense } from 'react'
import { Button } from '../../ui/Button.tsx'

// The QR drawing (uqr) loads with the first code shown, not with the screen.
const QrCode = lazy(() => import('../../ui/QrCode.tsx').then((module) => ({ default: module.QrCode })))

/**
 * A code for the other phone to scan: a large QR, and its text under it (the receive code, short, to read out or
 * type; an offer or acceptance, long, to copy when the camera cannot read it).
 */
export function HandoverCode({
  code,
  label,
  short = false,
}: {
  code: string
  label: string
  short?: boolean
}) {
  const { t } = useLingui()
  return (
    <div data-handover-code={code} className="flex flex-col items-center gap-3">
      {/* As wide as the phone allows, black on white whatever the theme: cameras read it best that way. */}
      <div className="aspect-square w-full max-w-80 rounded-lg bg-white p-1 [&_svg]:h-auto [&_svg]:w-full">
        <Suspense fallback={null}>
          <QrCode value={code} label={label} size={320} />
        </Suspense>
      </div>
      {short ? (
        <p className="font-mono text-xl font-bold tracking-wide whitespace-nowrap text-slate-900">{code}</p>
      ) : (
        <details className="w-full text-sm text-slate-700">
          <summary className="flex min-h-11 cursor-pointer items-center">
            <Trans>The code as text (when the camera cannot read it)</Trans>
          </summary>
          <textarea
            readOnly
            value={code}
            aria-label={t`The code as text`}
            rows={4}
            className="w-full rounded-lg border border-slate-300 bg-slate-50 p-2 font-mono text-xs break-all"
          />
          <Button
            variant="secondary"
            onPress={() => void navigator.clipboard?.writeText(code).catch(() => undefined)}
          >
            <Copy aria-hidden className="size-4" />
            <Trans>Copy</Trans>
          </Button>
        </details>
      )}
    </div>
  )
}
