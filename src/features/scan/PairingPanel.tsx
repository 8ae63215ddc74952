import { Trans, useLingui } from '@lingui/react/macro'
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { Check, Link2, Plus } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { ErrorCode } from '../../../contract/errors.ts'
import { KEYCHAIN_NAME_MAX } from '../../../contract/keychains.ts'
import type { Tag } from '../../../contract/tags.ts'
import { keychainKeys } from '../../api/keychain-keys.ts'
import { keychainListQuery } from '../../api/keychains.ts'
import { tagKeys } from '../../api/tags.ts'
import { ApiError } from '../../lib/api.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { keychainNameProblem } from '../../lib/keychain-name.ts'
import { useHref } from '../../lib/use-locale.ts'
import type { FieldContext } from '../../offline/field.ts'
import { type Paired, submitPairing } from '../../offline/pairing.ts'
import type { Pairing } from '../../offline/pairing-mirror.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'

/** What a pairing gave; `queued`: made on this device, waiting for the network. */
export type PairedTag = Paired & { code: string }

/**
 * The scan screen's pairing, loaded only when a free tag is scanned or the pairing session is switched on: with
 * `tag`, what to do with that free tag; without, the session's count.
 */
export default function ScanPairing({
  tag,
  session,
  paired,
  context,
  onPaired,
}: {
  tag?: Tag
  session: boolean
  paired: PairedTag[]
  context: FieldContext
  onPaired: (paired: PairedTag) => void
}) {
  const queryClient = useQueryClient()
  if (!tag) return <PairingSessionSummary paired={paired} />
  return (
    <PairingPanel
      tag={tag}
      organizationId={context.organizationId}
      canCreate={context.permissions.includes('create__keychain')}
      canAttach={context.permissions.includes('create__key')}
      session={session}
      pair={(choice) => submitPairing(context, choice)}
      onPaired={(done) => {
        onPaired(done)
        // The keychain lists and pages, and the tag lists, read again when next shown.
        void queryClient.invalidateQueries({ queryKey: keychainKeys.all(context.organizationId) })
        void queryClient.invalidateQueries({ queryKey: tagKeys.all(context.organizationId) })
        // Ready for the next scan (a hardware scanner types into the focused field).
        if (session) document.getElementById('scan-value')?.focus()
      }}
    />
  )
}

const inputClass =
  'min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30'

/**
 * What to do with a scanned tag that is on no key: make a keychain with it as its first key (type a name, Enter),
 * or put it on an existing keychain (search as you type). Loaded only when such a tag is scanned.
 */
export function PairingPanel({
  tag,
  organizationId,
  canCreate,
  canAttach,
  session,
  pair,
  onPaired,
}: {
  tag: Tag
  organizationId: string
  canCreate: boolean
  canAttach: boolean
  /** In a pairing session the panel only asks for a name, and hands back to the scan field once done. */
  session: boolean
  pair: (choice: Pairing) => Promise<Paired>
  onPaired: (paired: PairedTag) => void
}) {
  const { t, i18n } = useLingui()
  const href = useHref()
  const [mode, setMode] = useState<'create' | 'attach'>(canCreate ? 'create' : 'attach')
  const [name, setName] = useState('')
  const nameProblem = name.trim() === '' ? undefined : keychainNameProblem(name.trim())
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [done, setDone] = useState<Paired | null>(null)

  const run = async (choice: Pairing) => {
    if (busy) return
    setBusy(true)
    setFailure(null)
    try {
      const paired = await pair(choice)
      setDone(paired)
      onPaired({ ...paired, code: tag.code })
    } catch (error) {
      setFailure(
        error instanceof ApiError && error.code === ErrorCode.tagTaken
          ? t`This tag is already on a key: it was paired meanwhile, perhaps on another device.`
          : (errorMessage(error, i18n) ?? t`The tag could not be paired. Please try again.`),
      )
    } finally {
      setBusy(false)
    }
  }
  const onCreate = (event: FormEvent) => {
    event.preventDefault()
    const trimmed = name.trim()
    // The contract's rule, checked here: a name the server would refuse must not wait in the outbox.
    if (trimmed !== '' && !keychainNameProblem(trimmed)) void run({ kind: 'create', tag, name: trimmed })
  }

  if (done) {
    const { keychainName } = done
    return (
      <Card className="flex flex-col gap-2 bg-emerald-50">
        <p
          role="status"
          data-paired={tag.code}
          className="flex items-center gap-2 font-semibold text-emerald-900"
        >
          <Check aria-hidden className="size-5" />
          <Trans>
            Tag {tag.code} is now on “{keychainName}”.
          </Trans>
        </p>
        {done.queued ? (
          <p className="text-sm text-amber-950">
            <Trans>Saved on this device: it will be sent when the network returns.</Trans>
          </p>
        ) : session ? null : (
          <AppLink
            href={href(`/app/keychains/${done.keychainId}`)}
            className={buttonClass('secondary', 'self-start')}
          >
            <Trans>Open the keychain</Trans>
          </AppLink>
        )}
      </Card>
    )
  }

  return (
    <Card className="flex flex-col gap-3">
      <p className="font-semibold text-slate-900">
        <Trans>Tag {tag.code} is free. Pair it:</Trans>
      </p>
      {canCreate && canAttach && !session ? (
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">{t`Pair the tag`}</legend>
          <Button
            variant={mode === 'create' ? 'primary' : 'secondary'}
            aria-pressed={mode === 'create'}
            onPress={() => setMode('create')}
          >
            <Plus aria-hidden className="size-4" />
            <Trans>New keychain</Trans>
          </Button>
          <Button
            variant={mode === 'attach' ? 'primary' : 'secondary'}
            aria-pressed={mode === 'attach'}
            onPress={() => setMode('attach')}
          >
            <Link2 aria-hidden className="size-4" />
            <Trans>Existing keychain</Trans>
          </Button>
        </fieldset>
      ) : null}
      {mode === 'create' && canCreate ? (
        <form onSubmit={onCreate} className="flex flex-col gap-2">
          <label htmlFor="pair-name" className="text-sm font-medium text-slate-800">
            <Trans>Name of the new keychain</Trans>
          </label>
          <div className="flex gap-2">
            <input
              id="pair-name"
              // The next step after a scan: typing the name, then Enter.
              // biome-ignore lint/a11y/noAutofocus: the panel appears because the person just scanned this tag
              autoFocus
              value={name}
              maxLength={KEYCHAIN_NAME_MAX}
              aria-invalid={nameProblem ? true : undefined}
              aria-describedby={nameProblem ? 'pair-name-problem' : undefined}
              onChange={(event) => setName(event.target.value)}
              autoComplete="off"
              enterKeyHint="done"
              className={inputClass}
            />
            <Button type="submit" isDisabled={busy || name.trim() === '' || nameProblem !== undefined}>
              <Trans>Create</Trans>
            </Button>
          </div>
          {nameProblem ? (
            <p id="pair-name-problem" className="text-sm text-red-800">
              {i18n._(nameProblem)}
            </p>
          ) : null}
        </form>
      ) : null}
      {mode === 'attach' && canAttach ? (
        <KeychainPicker
          organizationId={organizationId}
          busy={busy}
          onPick={(keychain) => void run({ kind: 'attach', tag, keychain })}
        />
      ) : null}
      {failure ? (
        <p role="alert" className="rounded-lg bg-red-50 p-3 font-medium text-red-950">
          {failure}
        </p>
      ) : null}
    </Card>
  )
}

/** Keychains whose name holds what is typed (online from the server, offline from the device's copy). */
function KeychainPicker({
  organizationId,
  busy,
  onPick,
}: {
  organizationId: string
  busy: boolean
  onPick: (keychain: { id: string; name: string }) => void
}) {
  const [q, setQ] = useState('')
  const list = useInfiniteQuery({ ...keychainListQuery(organizationId, q.trim()), enabled: q.trim() !== '' })
  const rows = (list.data?.pages[0]?.data ?? []).slice(0, 8)
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor="pair-search" className="text-sm font-medium text-slate-800">
        <Trans>Find a keychain by name</Trans>
      </label>
      <input
        id="pair-search"
        // biome-ignore lint/a11y/noAutofocus: the person chose to look for a keychain just now
        autoFocus
        type="search"
        value={q}
        onChange={(event) => setQ(event.target.value)}
        autoComplete="off"
        className={inputClass}
      />
      {q.trim() !== '' && list.isSuccess && rows.length === 0 ? (
        <p className="text-sm text-slate-700">
          <Trans>No keychain has this in its name.</Trans>
        </p>
      ) : null}
      <ul className="flex flex-col gap-1">
        {rows.map((row) => (
          <li key={row.id}>
            <Button
              variant="secondary"
              className="w-full justify-start"
              isDisabled={busy}
              onPress={() => onPick(row)}
            >
              <Link2 aria-hidden className="size-4" />
              <Trans>Add to “{row.name}”</Trans>
            </Button>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** The pairing session's count and its last pairings, newest first. */
export function PairingSessionSummary({ paired }: { paired: PairedTag[] }) {
  const count = paired.length
  return (
    <div className="flex flex-col gap-1 rounded-lg bg-brand-50 p-3 text-sm text-slate-800">
      <p role="status" data-paired-count={count} className="font-semibold">
        <Trans>Tags paired in this session: {count}</Trans>
      </p>
      {count === 0 ? (
        <p>
          <Trans>Scan a free tag, type the new keychain's name, press Enter; then the next tag.</Trans>
        </p>
      ) : null}
      <ul>
        {paired
          .slice(-5)
          .reverse()
          .map((each) => (
            <li key={each.code}>
              {each.code} → {each.keychainName}
              {each.queued ? (
                <span className="text-amber-900">
                  {' '}
                  <Trans>(waiting to sync)</Trans>
                </span>
              ) : null}
            </li>
          ))}
      </ul>
    </div>
  )
}
