import { useLingui } from '@lingui/react/macro'
import { Ellipsis } from 'lucide-react'
import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react'
import { buttonClass } from '../../ui/Button.tsx'

export type MenuItem = { id: string; label: ReactNode; onSelect: () => void; tone?: 'danger' }

/**
 * A row's less frequent and destructive actions behind one "More actions" button (a WAI-ARIA menu button: arrow
 * keys, Home and End move, Escape or Tab close, a click outside closes, focus goes back to the button).
 */
export function TransferMenu({ label, items }: { label: string; items: MenuItem[] }) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  const menuId = useId()
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)
  const itemsOf = useCallback(
    () => [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])],
    [],
  )

  useEffect(() => {
    if (!open) return
    itemsOf()[0]?.focus()
    const outside = (event: PointerEvent) => {
      const target = event.target as Node
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false)
    }
    document.addEventListener('pointerdown', outside)
    return () => document.removeEventListener('pointerdown', outside)
  }, [open, itemsOf])

  const close = (focusButton: boolean) => {
    setOpen(false)
    if (focusButton) buttonRef.current?.focus()
  }
  const onKeyDown = (event: KeyboardEvent) => {
    const all = itemsOf()
    const at = all.indexOf(document.activeElement as HTMLElement)
    const move = (index: number) => all[(index + all.length) % all.length]?.focus()
    if (event.key === 'ArrowDown') move(at + 1)
    else if (event.key === 'ArrowUp') move(at - 1)
    else if (event.key === 'Home') move(0)
    else if (event.key === 'End') move(all.length - 1)
    else if (event.key === 'Escape') close(true)
    else if (event.key === 'Tab') close(false)
    else return
    if (event.key !== 'Tab') event.preventDefault()
  }
  if (items.length === 0) return null
  return (
    <div className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={label}
        title={t`More actions`}
        className={buttonClass('ghost', 'px-2')}
        onClick={() => setOpen((now) => !now)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault()
            setOpen(true)
          }
        }}
      >
        <Ellipsis aria-hidden className="size-5" />
      </button>
      {open ? (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={label}
          tabIndex={-1}
          onKeyDown={onKeyDown}
          className="absolute right-0 z-20 mt-1 min-w-56 rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          {items.map((item) => (
            <button
              key={item.id}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={`block min-h-11 w-full px-4 py-2 text-left text-sm font-medium hover:bg-slate-100 focus:bg-slate-100 focus:outline-none lg:min-h-10 ${
                item.tone === 'danger' ? 'text-red-800' : 'text-slate-900'
              }`}
              onClick={() => {
                close(true)
                item.onSelect()
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  )
}
