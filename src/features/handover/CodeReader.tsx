import { Trans } from '@lingui/react/macro'
import { ScanLine } from 'lucide-react'
import { type FormEvent, lazy, Suspense, useState } from 'react'
import { Button } from '../../ui/Button.tsx'

// The camera's controls load after the screen: typing, pasting and hardware scanners work meanwhile.
const CameraView = lazy(() =>
  import('../../ui/camera/CameraView.tsx').then((module) => ({ default: module.CameraView })),
)

/**
 * Reads the other phone's code: the camera, a typed or pasted code, or a hardware scanner (it types the code and
 * presses Enter). `onRead` gets each value once; `busy` while the previous one is being checked.
 */
export function CodeReader({
  id,
  label,
  placeholder,
  busy,
  onRead,
}: {
  id: string
  label: string
  placeholder?: string
  busy: boolean
  onRead: (value: string) => void
}) {
  const [typed, setTyped] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const value = typed.trim()
    if (value === '' || busy) return
    setTyped('')
    onRead(value)
  }
  return (
    <div className="flex flex-col gap-3">
      <Suspense fallback={null}>
        <CameraView onRead={(value) => (busy ? undefined : onRead(value.trim()))} />
      </Suspense>
      <form onSubmit={submit} className="flex flex-col gap-2">
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        <div className="flex gap-2">
          <input
            id={id}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            enterKeyHint="go"
            placeholder={placeholder}
            className="min-h-11 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 font-mono text-base focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30"
          />
          <Button type="submit" isDisabled={busy || typed.trim() === ''}>
            <ScanLine aria-hidden className="size-4" />
            <Trans>Check</Trans>
          </Button>
        </div>
        <p className="text-sm text-slate-600">
          <Trans>A hardware scanner works here too: it types the code and presses Enter.</Trans>
        </p>
      </form>
    </div>
  )
}
