import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import { ErrorPage, fatalErrorOf, NotFoundPage } from '../app/ErrorPages.tsx'
import { useHeadingTitle } from '../lib/heading-title.ts'
import { Toaster } from '../ui/toast/Toaster.tsx'

export type RouterContext = { queryClient: QueryClient; sessionReady: Promise<void> }

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: NotFoundPage,
  errorComponent: ({ error }) => <ErrorPage error={fatalErrorOf(error)} />,
})

function Root() {
  useHeadingTitle()
  return (
    <>
      <Outlet />
      <Toaster />
    </>
  )
}
