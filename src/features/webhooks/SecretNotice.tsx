import { Trans } from '@lingui/react/macro'
import { Button } from '../../ui/Button.tsx'

/** The signing secret, shown once after a creation or a rotation: the server never answers it again. */
export function SecretNotice({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <div role="status" className="mb-4 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm">
      <p className="mb-2 font-semibold text-amber-900">
        <Trans>Copy the signing secret now: it will not be shown again.</Trans>
      </p>
      <code
        className="mb-3 block rounded bg-white p-2 font-mono break-all select-all"
        data-testid="webhook-secret"
      >
        {secret}
      </code>
      <p className="mb-3 text-slate-700">
        <Trans>
          Each request carries a Trousseau-Signature header: t=timestamp,v1=HMAC-SHA256 of “timestamp.body”
          with this secret, in hexadecimal. Check it, and refuse a timestamp older than five minutes.
        </Trans>
      </p>
      <Button variant="secondary" onPress={onDone}>
        <Trans>I have copied it</Trans>
      </Button>
    </div>
  )
}
