import { Trans } from '@lingui/react/macro'
import { Badge } from '../../ui/Badge.tsx'

/** Where a handover stands: on this phone waiting to be sent, applied by the server, or refused by it. */
export type HandoverState = 'queued' | 'APPLIED' | 'REFUSED'

export function HandoverStatusBadge({ state }: { state: HandoverState }) {
  if (state === 'APPLIED')
    return (
      <Badge tone="success">
        <Trans>Recorded</Trans>
      </Badge>
    )
  if (state === 'REFUSED')
    return (
      <Badge tone="danger">
        <Trans context="handover status">Refused</Trans>
      </Badge>
    )
  return (
    <Badge tone="warning">
      <Trans>Not sent yet</Trans>
    </Badge>
  )
}
