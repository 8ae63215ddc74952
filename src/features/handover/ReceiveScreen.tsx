import { Trans, useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { CircleCheck, LoaderCircle } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { keychainKeys } from '../../api/keychain-keys.ts'
import { personName } from '../../lib/labels.ts'
import { useHref } from '../../lib/use-locale.ts'
import type { LocalHandover, LocalRefusal } from '../../offline/handover.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { type HandoverActions, offlineHandoverActions } from './actions.ts'
import { CodeReader } from './CodeReader.tsx'
import { HandoverCode } from './HandoverCode.tsx'
import { RefusalNotice } from './RefusalNotice.tsx'

type Accepted = { acceptanceCode: string; handover: LocalHandover }

/**
 * `/app/handover`: this phone's receive code for the giver to scan, then the giver's offer scanned here,
 * then the acceptance for the giver to scan. Works with no network: the phone checks the offer against its copy.
 */
export function ReceiveScreen({
  userId,
  organizationId,
  actions = offlineHandoverActions,
}: {
  userId: string
  organizationId: string
  actions?: HandoverActions
}) {
  const { t } = useLingui()
  const href = useHref()
  const queryClient = useQueryClient()
  const [code, setCode] = useState<string | null>(null)
  const [startFailed, setStartFailed] = useState(false)
  const [busy, setBusy] = useState(false)
  const [refusal, setRefusal] = useState<LocalRefusal | null>(null)
  const [accepted, setAccepted] = useState<Accepted | null>(null)
  // Only the latest receive code is shown (each one replaces the one pending on this device).
  const attempt = useRef(0)

  const start = () => {
    const seq = ++attempt.current
    setStartFailed(false)
    setCode(null)
    setRefusal(null)
    actions.startReceiving(userId, organizationId).then(
      (started) => {
        if (seq === attempt.current) setCode(started.code)
      },
      () => {
        if (seq === attempt.current) setStartFailed(true)
      },
    )
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: one receive code per person and organization
  useEffect(start, [userId, organizationId])

  const onOffer = async (offerCode: string) => {
    setBusy(true)
    setRefusal(null)
    try {
      const answer = await actions.acceptOffer({ userId, organizationId, offerCode })
      if (answer.ok) {
        setAccepted({ acceptanceCode: answer.acceptanceCode, handover: answer.handover })
        void queryClient.invalidateQueries({ queryKey: keychainKeys.all(organizationId) })
      } else setRefusal(answer.reason)
    } catch {
      setRefusal('malformed')
    } finally {
      setBusy(false)
    }
  }

  const header = (
    <PageHeader title={<Trans>Receive a keychain</Trans>}>
      <AppLink href={href('/app/handovers')}>
        <Trans>All handovers</Trans>
      </AppLink>
    </PageHeader>
  )

  if (accepted) {
    const { handover } = accepted
    const giver = personName(handover.giver)
    const keychain = handover.keychain.name
    return (
      <>
        {header}
        <Card className="flex flex-col gap-4">
          <p
            role="status"
            className="flex items-center gap-2 rounded-lg bg-emerald-50 p-3 font-semibold text-emerald-900"
          >
            <CircleCheck aria-hidden className="size-5 shrink-0" />
            <Trans>You now hold {keychain}.</Trans>
          </p>
          <h2 className="text-xl font-bold text-slate-900">
            <Trans>Show this to {giver}</Trans>
          </h2>
          <p className="text-slate-700">
            <Trans>Their phone scans it to record that you accepted the keychain.</Trans>
          </p>
          <HandoverCode code={accepted.acceptanceCode} label={t`Acceptance of ${keychain}, to scan`} />
          <AppLink
            href={href(`/app/handovers/${handover.offerId}`)}
            className={buttonClass('secondary', 'self-start')}
          >
            <Trans>See the receipt</Trans>
          </AppLink>
        </Card>
      </>
    )
  }

  return (
    <>
      {header}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card className="flex flex-col gap-4">
          <h2 className="text-lg font-semibold text-slate-900">
            <Trans>1. Let the giver scan your code</Trans>
          </h2>
          {code ? (
            <>
              <HandoverCode code={code} label={t`Your receive code, to scan`} short />
              <Button variant="ghost" className="self-start" onPress={start}>
                <Trans>New code</Trans>
              </Button>
            </>
          ) : startFailed ? (
            <ErrorState message={<Trans>This phone could not make a receive code.</Trans>} onRetry={start} />
          ) : (
            <LoadingState label={<Trans>Making your receive code…</Trans>} />
          )}
        </Card>
        <Card className="flex flex-col gap-4">
          <h2 className="text-lg font-semibold text-slate-900">
            <Trans>2. Scan the offer on their screen</Trans>
          </h2>
          {refusal ? <RefusalNotice reason={refusal} /> : null}
          {busy ? (
            <p role="status" className="flex items-center gap-2 text-slate-700">
              <LoaderCircle aria-hidden className="size-4 animate-spin" />
              <Trans>Checking the offer…</Trans>
            </p>
          ) : null}
          <CodeReader
            id="handover-offer"
            label={t`Offer code`}
            placeholder="TRH1|O|…"
            busy={busy || code === null}
            onRead={(value) => void onOffer(value)}
          />
        </Card>
      </div>
    </>
  )
}
