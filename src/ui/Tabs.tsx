import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react'

export type TabItem = { id: string; label: ReactNode; content: ReactNode }

/** The next tab a key moves to (WAI-ARIA tabs pattern, automatic activation), or null for other keys. */
export function tabAfterKey(key: string, index: number, count: number): number | null {
  if (key === 'ArrowRight') return (index + 1) % count
  if (key === 'ArrowLeft') return (index - 1 + count) % count
  if (key === 'Home') return 0
  if (key === 'End') return count - 1
  return null
}

export function Tabs({
  label,
  items,
  selected,
  onSelect,
}: {
  label: string
  items: TabItem[]
  selected: string
  onSelect: (id: string) => void
}) {
  const base = useId()
  const list = useRef<HTMLDivElement>(null)
  const current = items.find((item) => item.id === selected) ?? items[0]
  function onKeyDown(event: KeyboardEvent, index: number) {
    const next = tabAfterKey(event.key, index, items.length)
    const item = next === null ? undefined : items[next]
    if (next === null || !item) return
    event.preventDefault()
    onSelect(item.id)
    list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus()
  }
  return (
    <div>
      <div
        ref={list}
        role="tablist"
        aria-label={label}
        className="mb-5 flex gap-1 overflow-x-auto border-b border-slate-200"
      >
        {items.map((item, index) => {
          const isSelected = item === current
          return (
            <button
              key={item.id}
              type="button"
              role="tab"
              id={`${base}-tab-${item.id}`}
              aria-selected={isSelected}
              aria-controls={`${base}-panel-${item.id}`}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(item.id)}
              onKeyDown={(event) => onKeyDown(event, index)}
              className="-mb-px min-h-11 cursor-pointer border-b-2 border-transparent px-4 py-2.5 text-sm font-semibold whitespace-nowrap text-slate-700 outline-none hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 aria-selected:border-brand-700 aria-selected:text-brand-800"
            >
              {item.label}
            </button>
          )
        })}
      </div>
      {current ? (
        <div
          role="tabpanel"
          id={`${base}-panel-${current.id}`}
          aria-labelledby={`${base}-tab-${current.id}`}
          className="outline-none"
        >
          {current.content}
        </div>
      ) : null}
    </div>
  )
}
