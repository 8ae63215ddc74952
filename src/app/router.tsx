import type { QueryClient } from '@tanstack/react-query'
import { createRouter } from '@tanstack/react-router'
import { routeTree } from '../routeTree.gen.ts'
import { ErrorPage, fatalErrorOf, NotFoundPage } from './ErrorPages.tsx'

export function createAppRouter(queryClient: QueryClient, sessionReady: Promise<void>) {
  return createRouter({
    routeTree,
    context: { queryClient, sessionReady },
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    defaultNotFoundComponent: NotFoundPage,
    defaultErrorComponent: ({ error }) => <ErrorPage error={fatalErrorOf(error)} />,
    scrollRestoration: true,
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}
