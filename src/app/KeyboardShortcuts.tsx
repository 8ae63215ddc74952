import { lazy, Suspense, useState } from 'react'
import type { Locale } from '../../contract/locale.ts'
import { useShortcuts } from './shortcuts.ts'

const ShortcutsDialog = lazy(() => import('./ShortcutsDialog.tsx'))

/** The keyboard's shortcuts and, on `?`, the list of them. */
export default function KeyboardShortcuts({ locale }: { locale: Locale }) {
  const [open, setOpen] = useState(false)
  useShortcuts(locale, () => setOpen(true))
  return open ? (
    <Suspense fallback={null}>
      <ShortcutsDialog onClose={() => setOpen(false)} />
    </Suspense>
  ) : null
}
