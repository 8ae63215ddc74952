import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import { LazyErrorPage, LazyNotFoundPage } from '../app/LazyErrorPages.tsx'
import { useHeadingTitle } from '../lib/heading-title.ts'
import { LazyToaster } from '../ui/toast/LazyToaster.tsx'

export type RouterContext = { queryClient: QueryClient; sessionReady: Promise<void> }

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: LazyNotFoundPage,
  errorComponent: ({ error }) => <LazyErrorPage error={error} />,
})

function Root() {
  useHeadingTitle()
  return (
    <>
      <Outlet />
      <LazyToaster />
    </>
  )
}
