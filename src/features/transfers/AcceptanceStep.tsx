import { Trans, useLingui } from '@lingui/react/macro'
import { CircleCheck } from 'lucide-react'
import { useId, useRef, useState } from 'react'
import { type Acceptance, TYPED_NAME_MAX_CHARS } from '../../../contract/receipts.ts'
import { Button } from '../../ui/Button.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { resizePhoto } from './photo-resize.ts'
import { SignaturePad } from './SignaturePad.tsx'

/**
 * The recipient accepts the keychain at its first pickup: a typed name (the keyboard's way) or a drawn
 * signature, and a photo of the keys if they like, resized on the device. Loaded only when it opens, so the
 * scan screen stays light. Works offline: the acceptance goes into the outbox with the pickup.
 */
export default function AcceptanceStep({
  recipientName,
  pending,
  onAccept,
  onCancel,
}: {
  recipientName: string
  pending: boolean
  onAccept: (acceptance: Acceptance) => void
  onCancel: () => void
}) {
  const { t } = useLingui()
  const photoId = useId()
  const [typedName, setTypedName] = useState('')
  const [signature, setSignature] = useState<string | null>(null)
  const [photo, setPhoto] = useState<string | null>(null)
  const [photoProblem, setPhotoProblem] = useState<string | null>(null)
  const [resizing, setResizing] = useState(false)
  // The file field is drawn anew when the photo is removed, so the same file can be chosen again.
  const [photoField, setPhotoField] = useState(0)
  // Only the last photo chosen counts: one still being resized when another is chosen is dropped.
  const lastChoice = useRef(0)
  const name = typedName.trim()
  const ready = (name !== '' || signature !== null) && !resizing

  const choosePhoto = async (file: File | undefined) => {
    setPhotoProblem(null)
    if (!file) return
    const choice = ++lastChoice.current
    setResizing(true)
    try {
      const resized = await resizePhoto(file)
      if (choice === lastChoice.current) setPhoto(resized)
    } catch {
      if (choice !== lastChoice.current) return
      setPhoto(null)
      setPhotoProblem(t`This photo could not be read. Try another one.`)
    } finally {
      if (choice === lastChoice.current) setResizing(false)
    }
  }

  const removePhoto = () => {
    setPhoto(null)
    setPhotoField((field) => field + 1)
  }

  return (
    <form
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4"
      aria-label={t`Accept the keychain`}
      onSubmit={(event) => {
        event.preventDefault()
        if (!ready) return
        onAccept({
          ...(name ? { typedName: name } : {}),
          ...(signature ? { signature } : {}),
          ...(photo ? { photo } : {}),
        })
      }}
    >
      <p className="text-slate-800">
        <Trans>
          By accepting, {recipientName} confirms receiving this keychain and its keys. Type your name or sign
          below; a receipt is mailed to you and to the organization.
        </Trans>
      </p>
      <TextField
        label={<Trans>Your name</Trans>}
        name="typedName"
        value={typedName}
        onChange={setTypedName}
        autoComplete="name"
        maxLength={TYPED_NAME_MAX_CHARS}
      />
      <div className="flex flex-col gap-1.5">
        <span className="text-sm font-medium text-slate-800">
          <Trans>Or sign here</Trans>
        </span>
        <SignaturePad onChange={setSignature} />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={photoId} className="text-sm font-medium text-slate-800">
          <Trans>Photo of the keys (optional)</Trans>
        </label>
        <input
          key={photoField}
          id={photoId}
          type="file"
          accept="image/*"
          capture="environment"
          className="text-sm"
          onChange={(event) => void choosePhoto(event.target.files?.[0])}
        />
        {resizing ? (
          <p className="text-sm text-slate-700">
            <Trans>Preparing the photo…</Trans>
          </p>
        ) : null}
        {photo ? (
          <div className="flex items-center gap-3">
            <img src={photo} alt={t`The keys as handed over`} className="h-20 w-20 rounded object-cover" />
            <Button variant="ghost" onPress={removePhoto}>
              <Trans>Remove the photo</Trans>
            </Button>
          </div>
        ) : null}
        {photoProblem ? (
          <p role="alert" className="text-sm font-medium text-red-800">
            {photoProblem}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" isDisabled={!ready || pending}>
          <CircleCheck aria-hidden className="size-4" />
          <Trans>Accept and confirm the pickup</Trans>
        </Button>
        <Button variant="secondary" onPress={onCancel} isDisabled={pending}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  )
}
