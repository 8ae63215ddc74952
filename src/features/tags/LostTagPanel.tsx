import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { Tag } from '../../../contract/tags.ts'
import { useOrderTagReplacement, useSetTagLost } from '../../api/tags.ts'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx'
import { toasts } from '../../ui/toast/store.ts'

/**
 * On a tag's page, for roles that may: declare it lost (scans then answer "lost") or found again, after asking,
 * and put a reprint of its code into the cart in one step.
 */
export function LostTagPanel({
  tag,
  organizationId,
  permissions,
}: {
  tag: Tag
  organizationId: string
  permissions: readonly string[]
}) {
  const { t, i18n } = useLingui()
  const href = useHref()
  const setLost = useSetTagLost(tag.publicId)
  const replacement = useOrderTagReplacement(organizationId)
  const [open, setOpen] = useState(false)
  const [ordered, setOrdered] = useState(false)
  const lost = tag.lostAt !== undefined
  const code = tag.code
  const mayUpdate = permissions.includes('update__tag')
  const mayOrder = permissions.includes('create__order')
  if (!mayUpdate && !mayOrder && !lost) return null
  const toggle = async () => {
    try {
      await setLost.mutateAsync({ id: tag.id, lost: !lost })
      toasts.add({
        severity: 'success',
        summary: lost ? t`Tag ${code} is no longer lost.` : t`Tag ${code} is declared lost.`,
        life: 4000,
      })
    } catch {
      toasts.add({ severity: 'error', summary: t`An error occurred.`, life: 6000 })
    } finally {
      setOpen(false)
    }
  }
  const order = async () => {
    try {
      await replacement.mutateAsync(tag.id)
      setOrdered(true)
    } catch {
      toasts.add({ severity: 'error', summary: t`An error occurred.`, life: 6000 })
    }
  }
  const lostOn = lost ? i18n.date(tag.lostAt!, { dateStyle: 'medium', timeStyle: 'short' }) : ''
  return (
    <section className="mt-4 flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5">
      {lost ? (
        <p className="font-semibold text-red-800" role="status">
          <Trans>
            Declared lost on {lostOn}: scans of this tag show “lost” and its administrators are told.
          </Trans>
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        {mayUpdate ? (
          <Button variant="secondary" onPress={() => setOpen(true)}>
            {lost ? <Trans>It was found again</Trans> : <Trans>Declare lost</Trans>}
          </Button>
        ) : null}
        {mayOrder && !ordered ? (
          <Button variant="secondary" onPress={() => void order()} isDisabled={replacement.isPending}>
            <Trans>Order a replacement</Trans>
          </Button>
        ) : null}
        {ordered ? (
          <AppLink
            href={href(`/app/organizations/${organizationId}/new-order`)}
            className={buttonClass('primary')}
          >
            <Trans>The reprint of {code} is in the cart: open the cart</Trans>
          </AppLink>
        ) : null}
      </div>
      <ConfirmDialog
        isOpen={open}
        onOpenChange={setOpen}
        title={lost ? <Trans>Was tag {code} found again?</Trans> : <Trans>Declare tag {code} lost?</Trans>}
        confirmLabel={lost ? <Trans>It was found again</Trans> : <Trans>Declare lost</Trans>}
        isPending={setLost.isPending}
        dismissLabel={<Trans>Keep it as it is</Trans>}
        onConfirm={() => void toggle()}
      >
        {lost ? (
          <Trans>Scans of this tag will open its keychain again.</Trans>
        ) : (
          <Trans>
            Scans of this tag will no longer open its keychain: they show “lost”, and its administrators are
            told. A finder can still leave a message on its page.
          </Trans>
        )}
      </ConfirmDialog>
    </section>
  )
}
