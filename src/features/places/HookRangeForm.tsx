import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import * as v from 'valibot'
import { HOOK_RANGE_MAX, HookRangeSchema } from '../../../contract/places.ts'
import { useAddHooks } from '../../api/places.ts'
import { Button } from '../../ui/Button.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { placeRefusal } from './labels.ts'

/** A hook's code as the server makes it: the prefix, then the number padded to `width` digits. */
export function hookCode(prefix: string, number: number, width: number): string {
  return `${prefix.trim().toUpperCase()}${String(number).padStart(width, '0')}`
}

const whole = (value: string) => (/^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN)

/**
 * Adds hooks numbered in a range (prefix `A-`, 1 to 60, 2 digits: A-01 … A-60), with the first and the last
 * code shown as they will be printed. Codes the board already has are skipped by the server.
 */
export function HookRangeForm({
  organizationId,
  placeId,
  nextNumber,
}: {
  organizationId: string
  placeId: string
  /** Where a new range starts by default: after the board's hooks. */
  nextNumber: number
}) {
  const { t, i18n } = useLingui()
  const add = useAddHooks(organizationId, placeId)
  const [prefix, setPrefix] = useState('A-')
  const [from, setFrom] = useState(String(nextNumber))
  const [to, setTo] = useState(String(nextNumber + 19))
  const [width, setWidth] = useState('2')
  const [error, setError] = useState<string | undefined>()
  const range = { prefix, from: whole(from), to: whole(to), width: whole(width) }
  const checked = v.safeParse(HookRangeSchema, range)
  const count = checked.success ? checked.output.to - checked.output.from + 1 : 0
  const first = checked.success ? hookCode(prefix, range.from, range.width) : ''
  const last = checked.success ? hookCode(prefix, range.to, range.width) : ''
  const max = HOOK_RANGE_MAX

  const problem = (): string => {
    if (!v.is(HookRangeSchema.pipe[0].entries.prefix, prefix))
      return t`A prefix holds letters and digits, and may end with a dash (A-, B, 12-).`
    if (Number.isNaN(range.from) || Number.isNaN(range.to) || range.from > 9999 || range.to > 9999)
      return t`From and to are whole numbers from 0 to 9999.`
    if (Number.isNaN(range.width) || range.width < 1 || range.width > 4)
      return t`The number of digits is 1 to 4.`
    if (range.to < range.from) return t`The range ends before it starts.`
    return t`At most ${max} hooks at once.`
  }

  return (
    <form
      noValidate
      aria-label={t`Add hooks`}
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault()
        if (!checked.success) {
          setError(problem())
          return
        }
        setError(undefined)
        add.mutate(checked.output, {
          onSuccess: ({ created, skipped }) =>
            toasts.add({
              severity: 'success',
              summary:
                skipped > 0
                  ? t`${created} hooks added; ${skipped} were already on the board.`
                  : t`${created} hooks added.`,
              life: 5000,
            }),
          onError: (caught) =>
            setError(placeRefusal(caught, i18n) ?? t`The hooks could not be added. Try again.`),
        })
      }}
    >
      <h2 className="font-semibold text-slate-900">
        <Trans>Add a range of hooks</Trans>
      </h2>
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        <TextField
          label={<Trans>Prefix</Trans>}
          name="prefix"
          value={prefix}
          onChange={setPrefix}
          maxLength={8}
        />
        <TextField
          label={<Trans>From</Trans>}
          name="from"
          value={from}
          onChange={setFrom}
          inputMode="numeric"
        />
        <TextField label={<Trans>To</Trans>} name="to" value={to} onChange={setTo} inputMode="numeric" />
        <TextField
          label={<Trans>Digits</Trans>}
          name="width"
          value={width}
          onChange={setWidth}
          inputMode="numeric"
          maxLength={1}
        />
      </div>
      <p className="text-sm text-slate-700" aria-live="polite" data-testid="hook-range-preview">
        {!checked.success ? (
          <Trans>Fill in the range to see its first and last codes.</Trans>
        ) : count === 1 ? (
          <Trans>One hook: {first}</Trans>
        ) : (
          <Trans>
            {count} hooks: {first} to {last}
          </Trans>
        )}
      </p>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <Button type="submit" className="self-start" isDisabled={add.isPending}>
        <Trans>Add the hooks</Trans>
      </Button>
    </form>
  )
}
