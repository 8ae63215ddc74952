import { Trans, useLingui } from '@lingui/react/macro'
import { X } from 'lucide-react'
import { useEffect, useRef } from 'react'

/** The keyboard shortcuts, listed (`?`): a native modal dialog, loaded the first time it opens. */
export default function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useLingui()
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const element = dialog.current
    if (element && !element.open) element.showModal()
  }, [])
  const shortcuts: Array<[string, string]> = [
    ['/', t`Search (the keychains when the screen has no search field)`],
    ['s', t`Scan a tag`],
    ['n', t`New item, on a list that offers one`],
    ['?', t`This list of shortcuts`],
  ]
  return (
    <dialog
      ref={dialog}
      aria-labelledby="shortcuts-title"
      onClose={onClose}
      className="m-auto w-full max-w-md rounded-xl bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/40 dark:backdrop:bg-black/60"
    >
      <div className="mb-4 flex items-start justify-between gap-4">
        <h2 id="shortcuts-title" className="text-lg font-semibold">
          <Trans>Keyboard shortcuts</Trans>
        </h2>
        <button
          type="button"
          onClick={() => dialog.current?.close()}
          className="-m-2 inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
        >
          <X aria-hidden className="size-5" />
          <span className="sr-only">{t`Close`}</span>
        </button>
      </div>
      <dl className="grid grid-cols-[auto_1fr] items-baseline gap-x-4 gap-y-3 text-sm">
        {shortcuts.map(([key, meaning]) => (
          <div key={key} className="contents">
            <dt>
              <kbd className="inline-flex min-w-8 justify-center rounded-md border border-slate-300 bg-slate-50 px-2 py-0.5 font-mono font-semibold">
                {key}
              </kbd>
            </dt>
            <dd className="text-slate-700">{meaning}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-4 text-sm text-slate-600">
        <Trans>Shortcuts wait while you type in a field.</Trans>
      </p>
    </dialog>
  )
}
