import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Check } from 'lucide-react'
import { useState } from 'react'
import type { BillingCycle, Plan } from '../../../contract/commerce.ts'
import { planCartItem } from '../../../contract/commerce.ts'
import { useAddToCart } from '../../api/cart.ts'
import { plansQuery } from '../../api/plans.ts'
import { subscriptionQuery } from '../../api/subscriptions.ts'
import { useAbility } from '../../lib/ability.tsx'
import { formatMoney } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Badge } from '../../ui/Badge.tsx'
import { Button } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { PlanUsage } from './PlanUsage.tsx'

const cycleOf = (plan: Plan): BillingCycle => (plan.recurringInterval === 'year' ? 'YEARLY' : 'MONTHLY')

type PlanChoice = { kind: 'current' } | { kind: 'choose' | 'switch'; onPress: () => void } | null

function PlanCard({ plan, choice, busy }: { plan: Plan; choice: PlanChoice; busy: boolean }) {
  const locale = useLocale()
  const yearly = cycleOf(plan) === 'YEARLY'
  const months = 12 * plan.recurringIntervalCount
  const current = choice?.kind === 'current'
  return (
    <Card className={`flex flex-col gap-4 ${current ? 'ring-2 ring-brand-700' : ''}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-xl font-bold text-slate-900">{plan.name}</h2>
        {current ? (
          <Badge tone="brand">
            <Trans>Current plan</Trans>
          </Badge>
        ) : null}
      </div>
      {yearly ? (
        <div>
          <p className="text-3xl font-black text-slate-900">
            <Trans>{formatMoney(Math.round(plan.amountInCents / months), locale)} / month</Trans>
          </p>
          <p className="text-sm text-slate-700">
            <Trans>
              {formatMoney(plan.amountInCents, locale)} for {months} months, billed yearly
            </Trans>
          </p>
        </div>
      ) : (
        <p className="text-3xl font-black text-slate-900">
          <Trans>{formatMoney(plan.amountInCents, locale)} / month</Trans>
        </p>
      )}
      <p className="flex items-center gap-2 text-slate-800">
        <Check aria-hidden className="size-4 text-emerald-700" />
        <Plural value={plan.quantity} one="# transfer per month" other="# transfers per month" />
      </p>
      {choice && choice.kind !== 'current' ? (
        <Button className="mt-auto" isDisabled={busy} onPress={choice.onPress}>
          {choice.kind === 'switch' ? (
            <Trans>Switch to {plan.name}</Trans>
          ) : (
            <Trans>Choose {plan.name}</Trans>
          )}
        </Button>
      ) : null}
    </Card>
  )
}

/** Plans with a monthly/yearly switch; choosing one puts it in the selected organization's cart. */
export function PlansScreen({
  organizationId,
  onChosen,
}: {
  organizationId: string | null
  onChosen: () => void
}) {
  const { t } = useLingui()
  const failed = useFailureToast()
  const ability = useAbility()
  const addToCart = useAddToCart(organizationId ?? '')
  const [chosenCycle, setCycle] = useState<BillingCycle | null>(null)
  const [busy, setBusy] = useState(false)
  const { data: plans, isPending, isError, refetch } = useQuery(plansQuery)
  const readsSubscription = organizationId !== null && ability.can('read', 'subscription')
  const subscription = useQuery({
    ...subscriptionQuery(organizationId ?? ''),
    enabled: readsSubscription,
  }).data
  const active = subscription?.status === 'ACTIVE' ? subscription : null
  // The page opens on the billing period of the organization's plan.
  const cycle = chosenCycle ?? active?.billingCycle ?? 'MONTHLY'
  const choose = async (plan: Plan) => {
    if (!organizationId) {
      toasts.add({ severity: 'warn', summary: t`Select an organization before choosing a plan.`, life: 6000 })
      return
    }
    setBusy(true)
    try {
      await addToCart.mutateAsync(planCartItem(plan))
      toasts.add({ severity: 'success', summary: t`The plan ${plan.name} is in your cart.`, life: 5000 })
      onChosen()
    } catch (error) {
      failed(t`The plan could not be added to the cart.`, error)
    } finally {
      setBusy(false)
    }
  }
  const shown = plans?.filter((plan) => cycleOf(plan) === cycle) ?? []
  // Without a selected organization, choosing explains that one is needed; with one, only its admins buy.
  const canChoose = !organizationId || ability.can('manage', 'subscription')
  return (
    <>
      <PageHeader title={<Trans>Plans</Trans>}>
        <div
          role="radiogroup"
          aria-label={t`Billing`}
          className="inline-flex rounded-lg border border-slate-300 bg-white p-1"
        >
          {(['MONTHLY', 'YEARLY'] as const).map((each) => (
            <button
              key={each}
              type="button"
              aria-pressed={cycle === each}
              onClick={() => setCycle(each)}
              className={`min-h-11 rounded-md px-4 py-1.5 text-sm font-semibold lg:min-h-0 ${cycle === each ? 'bg-brand-700 text-white' : 'text-slate-800 hover:bg-slate-100'}`}
            >
              {each === 'MONTHLY' ? t`Monthly` : t`Yearly`}
            </button>
          ))}
        </div>
      </PageHeader>
      {active ? <PlanUsage subscription={active} /> : null}
      {canChoose ? null : (
        <p className="mb-6 text-slate-700">
          <Trans>Only an administrator can choose the plan.</Trans>
        </p>
      )}
      {isPending ? (
        <LoadingState label={<Trans>Loading plans…</Trans>} />
      ) : isError ? (
        <ErrorState message={<Trans>The plans could not be loaded.</Trans>} onRetry={() => void refetch()} />
      ) : shown.length === 0 ? (
        <EmptyState title={<Trans>No plans are available.</Trans>} />
      ) : (
        <div className="grid gap-4 md:grid-cols-3">
          {shown.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              busy={busy}
              choice={
                active?.planId === plan.id
                  ? { kind: 'current' }
                  : canChoose
                    ? { kind: active ? 'switch' : 'choose', onPress: () => void choose(plan) }
                    : null
              }
            />
          ))}
        </div>
      )}
    </>
  )
}
