import { useEffect, useId } from 'react'

const editing = new Set<string>()

/** Forms declare unsaved edits here, so a new build never reloads over them. */
export function useUnsavedChanges(dirty: boolean): void {
  const id = useId()
  useEffect(() => {
    if (dirty) editing.add(id)
    else editing.delete(id)
    return () => {
      editing.delete(id)
    }
  }, [dirty, id])
}

export function hasUnsavedChanges(): boolean {
  return editing.size > 0
}
