import type { QueryClient } from '@tanstack/react-query'
import { createRouter } from '@tanstack/react-router'
import { routeTree } from '../routeTree.gen.ts'
import { LazyErrorPage, LazyNotFoundPage } from './LazyErrorPages.tsx'

export function createAppRouter(queryClient: QueryClient, sessionReady: Promise<void>) {
  return createRouter({
    routeTree,
    context: { queryClient, sessionReady },
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    defaultNotFoundComponent: LazyNotFoundPage,
    defaultErrorComponent: ({ error }) => <LazyErrorPage error={error} />,
    scrollRestoration: true,
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}
