import { lazy, Suspense, useState } from 'react'
import type { ConfirmDialogProps } from './ConfirmDialogModal.tsx'

const ConfirmDialogModal = lazy(() =>
  import('./ConfirmDialogModal.tsx').then((module) => ({ default: module.ConfirmDialogModal })),
)

/**
 * Asks before a destructive action; Escape or the cancel button closes it. The dialog's code loads the first
 * time it opens, not with the screen (behind a click, off the first load).
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const [opened, setOpened] = useState(props.isOpen)
  if (props.isOpen && !opened) setOpened(true)
  if (!opened) return null
  return (
    <Suspense fallback={null}>
      <ConfirmDialogModal {...props} />
    </Suspense>
  )
}
