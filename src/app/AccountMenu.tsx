import { useLingui } from '@lingui/react/macro'
import { ChevronUp } from 'lucide-react'
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react'
import type { AccountPanelProps } from './AccountPanel.tsx'

const AccountPanel = lazy(() => import('./AccountPanel.tsx'))

/**
 * Everything about the account behind one button: who is signed in; opened, profile, plans, organizations and
 * the switch between them, theme, language, sign out. Escape or a click elsewhere closes it.
 */
export function AccountMenu(props: AccountPanelProps) {
  const { profile, onNavigate } = props
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  const panelId = useId()
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (!open) return
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false)
    }
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      button.current?.focus()
    }
    document.addEventListener('pointerdown', closeOutside)
    document.addEventListener('keydown', closeOnEscape)
    return () => {
      document.removeEventListener('pointerdown', closeOutside)
      document.removeEventListener('keydown', closeOnEscape)
    }
  }, [open])
  const name = [profile.firstName, profile.lastName].filter(Boolean).join(' ')
  const initial = (name || profile.email).charAt(0).toUpperCase()
  return (
    // The panel above the button at the side bar's foot, below it in the phone's menu sheet.
    <div ref={root} className="relative flex flex-col-reverse lg:block">
      {open ? (
        <div
          id={panelId}
          className="mt-2 flex flex-col gap-1 rounded-xl border border-slate-200 bg-white p-2 shadow-lg lg:absolute lg:inset-x-0 lg:bottom-full lg:mt-0 lg:mb-2"
        >
          <Suspense fallback={<div className="h-40" />}>
            <AccountPanel
              {...props}
              onNavigate={() => {
                setOpen(false)
                onNavigate()
              }}
            />
          </Suspense>
        </div>
      ) : null}
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((value) => !value)}
        className="flex min-h-11 w-full items-center gap-3 rounded-lg px-3 py-1.5 text-left text-sm hover:bg-slate-100"
      >
        <span
          aria-hidden
          className="inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-800"
        >
          {initial}
        </span>
        <span className="min-w-0 flex-1">
          <span className="sr-only">{t`Account:`} </span>
          {name ? <span className="block truncate font-semibold text-slate-900">{name}</span> : null}
          <span className="block truncate text-slate-600">{profile.email}</span>
        </span>
        <ChevronUp
          aria-hidden
          className={`size-4 shrink-0 transition-transform ${open ? '' : 'rotate-180'}`}
        />
      </button>
    </div>
  )
}
