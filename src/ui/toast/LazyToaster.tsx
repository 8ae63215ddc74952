import { lazy, Suspense, useSyncExternalStore } from 'react'
import { toasts } from './store.ts'

const Toaster = lazy(() => import('./Toaster.tsx').then((module) => ({ default: module.Toaster })))

const anyToast = () => toasts.getSnapshot().length > 0

/**
 * The toasts' view, loaded with the first toast: most pages show none at first, and the view (its icons and
 * animations) is then on no page's first load. The Toaster renders nothing without a toast, so nothing is lost.
 */
export function LazyToaster() {
  const shown = useSyncExternalStore(toasts.subscribe, anyToast, () => false)
  return shown ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null
}
