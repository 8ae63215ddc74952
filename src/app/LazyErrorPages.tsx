import { lazy, Suspense } from 'react'

// The error and not-found views show on few visits: they load when one does, not with every page.
const pages = () => import('./ErrorPages.tsx')
const NotFound = lazy(() => pages().then((module) => ({ default: module.NotFoundPage })))
const Failure = lazy(() =>
  pages().then((module) => ({
    default: ({ error }: { error: unknown }) => <module.ErrorPage error={module.fatalErrorOf(error)} />,
  })),
)

export function LazyNotFoundPage() {
  return (
    <Suspense fallback={null}>
      <NotFound />
    </Suspense>
  )
}

export function LazyErrorPage({ error }: { error: unknown }) {
  return (
    <Suspense fallback={null}>
      <Failure error={error} />
    </Suspense>
  )
}
