import { useLingui } from '@lingui/react/macro'
import { EllipsisVertical } from 'lucide-react'
import { type ReactNode, useEffect, useRef } from 'react'

/**
 * An overflow menu ("⋯"): the actions a page keeps out of the way (delete). A native disclosure: it opens
 * with the keyboard or a tap, closes on Escape or a click elsewhere.
 */
export function MoreActions({ label, children }: { label: string; children: ReactNode }) {
  const { t } = useLingui()
  const details = useRef<HTMLDetailsElement>(null)
  useEffect(() => {
    const close = (event: Event) => {
      const element = details.current
      if (!element?.open) return
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !element.contains(event.target as Node))
        element.open = false
    }
    document.addEventListener('click', close)
    document.addEventListener('keydown', close)
    return () => {
      document.removeEventListener('click', close)
      document.removeEventListener('keydown', close)
    }
  }, [])
  return (
    <details ref={details} className="relative">
      <summary
        aria-label={label}
        title={t`More actions`}
        className="flex size-11 cursor-pointer list-none items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 [&::-webkit-details-marker]:hidden"
      >
        <EllipsisVertical aria-hidden className="size-5" />
      </summary>
      <div className="absolute right-0 z-30 mt-1 flex min-w-48 flex-col rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
        {children}
      </div>
    </details>
  )
}
