import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { CircleCheck, LoaderCircle } from 'lucide-react'
import { useState } from 'react'
import type { Person } from '../../../contract/person.ts'
import { keychainKeys } from '../../api/keychain-keys.ts'
import { keychainQuery } from '../../api/keychain-one.ts'
import { personName } from '../../lib/labels.ts'
import { useHref } from '../../lib/use-locale.ts'
import type { LocalHandover, LocalRefusal } from '../../offline/handover.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { type HandoverActions, offlineHandoverActions } from './actions.ts'
import { CodeReader } from './CodeReader.tsx'
import { HandoverCode } from './HandoverCode.tsx'
import { RefusalNotice } from './RefusalNotice.tsx'

type Step =
  | { kind: 'receiver' }
  | { kind: 'offer'; offerCode: string; receiver: Person }
  | { kind: 'done'; handover: LocalHandover }

/**
 * `/app/handover/$keychainId`: scan the receiver's code, show them the signed offer, scan their acceptance.
 * Works with no network: this phone checks the acceptance with the receiver's key from its copy.
 */
export function GiveScreen({
  userId,
  organizationId,
  keychainId,
  actions = offlineHandoverActions,
}: {
  userId: string
  organizationId: string
  keychainId: string
  actions?: HandoverActions
}) {
  const { t } = useLingui()
  const href = useHref()
  const queryClient = useQueryClient()
  // The keychain's name, from the server or this phone's copy of it.
  const keychain = useQuery(keychainQuery(organizationId, keychainId)).data
  const [step, setStep] = useState<Step>({ kind: 'receiver' })
  const [busy, setBusy] = useState(false)
  const [refusal, setRefusal] = useState<LocalRefusal | null>(null)

  const check = async (run: () => Promise<LocalRefusal | null>) => {
    setBusy(true)
    setRefusal(null)
    try {
      setRefusal(await run())
    } catch {
      setRefusal('malformed')
    } finally {
      setBusy(false)
    }
  }
  const onReceiveCode = (receiveCode: string) =>
    check(async () => {
      const answer = await actions.makeOffer({ userId, organizationId, keychainId, receiveCode })
      if (!answer.ok) return answer.reason
      setStep({ kind: 'offer', offerCode: answer.offerCode, receiver: answer.receiver })
      return null
    })
  const onAcceptance = (acceptanceCode: string) =>
    check(async () => {
      const answer = await actions.completeOffer({ userId, organizationId, acceptanceCode })
      if (!answer.ok) return answer.reason
      setStep({ kind: 'done', handover: answer.handover })
      void queryClient.invalidateQueries({ queryKey: keychainKeys.all(organizationId) })
      return null
    })

  const name = step.kind === 'done' ? step.handover.keychain.name : (keychain?.name ?? '')
  const receiver =
    step.kind === 'offer'
      ? personName(step.receiver)
      : step.kind === 'done'
        ? personName(step.handover.receiver)
        : ''
  const checking = busy ? (
    <p role="status" className="flex items-center gap-2 text-slate-700">
      <LoaderCircle aria-hidden className="size-4 animate-spin" />
      <Trans>Checking…</Trans>
    </p>
  ) : null

  return (
    <>
      <PageHeader title={name ? <Trans>Hand over {name}</Trans> : <Trans>Hand over a keychain</Trans>} />
      {step.kind === 'receiver' ? (
        <Card className="flex flex-col gap-4">
          <h2 className="text-lg font-semibold text-slate-900">
            <Trans>Scan the receiver's code</Trans>
          </h2>
          <p className="text-slate-700">
            <Trans>On their phone: “Receive a keychain”. Scan the code it shows, or type it.</Trans>
          </p>
          {refusal ? <RefusalNotice reason={refusal} /> : null}
          {checking}
          <CodeReader
            id="handover-receive-code"
            label={t`Receive code`}
            placeholder="R-XXXX-XXXX-XXXX-XXXX"
            busy={busy}
            onRead={(value) => void onReceiveCode(value)}
          />
        </Card>
      ) : null}
      {step.kind === 'offer' ? (
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <Card className="flex flex-col gap-4">
            <h2 className="text-xl font-bold text-slate-900">
              <Trans>Let {receiver} scan this</Trans>
            </h2>
            <HandoverCode code={step.offerCode} label={t`Offer of ${name}, to scan`} />
          </Card>
          <Card className="flex flex-col gap-4">
            <h2 className="text-lg font-semibold text-slate-900">
              <Trans>Then scan their acceptance</Trans>
            </h2>
            {refusal ? <RefusalNotice reason={refusal} /> : null}
            {checking}
            <CodeReader
              id="handover-acceptance"
              label={t`Acceptance code`}
              placeholder="TRH1|A|…"
              busy={busy}
              onRead={(value) => void onAcceptance(value)}
            />
            <Button
              variant="ghost"
              className="self-start"
              onPress={() => {
                setRefusal(null)
                setStep({ kind: 'receiver' })
              }}
            >
              <Trans>Scan another receive code</Trans>
            </Button>
          </Card>
        </div>
      ) : null}
      {step.kind === 'done' ? (
        <Card className="flex flex-col gap-4">
          <p
            role="status"
            className="flex items-center gap-2 rounded-lg bg-emerald-50 p-3 text-lg font-semibold text-emerald-900"
          >
            <CircleCheck aria-hidden className="size-5 shrink-0" />
            <Trans>
              {receiver} now holds {name}.
            </Trans>
          </p>
          <p className="text-slate-700">
            <Trans>Both phones keep the signed handover and send it when the network is back.</Trans>
          </p>
          <AppLink
            href={href(`/app/handovers/${step.handover.offerId}`)}
            className={buttonClass('secondary', 'self-start')}
          >
            <Trans>See the receipt</Trans>
          </AppLink>
        </Card>
      ) : null}
    </>
  )
}
