import { i18n, type Messages } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { render } from '@testing-library/react'
import type { ReactElement } from 'react'

/** Renders a component with the providers every screen expects (Lingui, TanStack Query). */
export function renderWithProviders(ui: ReactElement) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return {
    queryClient,
    ...render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>
      </I18nProvider>,
    ),
  }
}

export async function useLocale(locale: 'fr' | 'en'): Promise<void> {
  const catalogs = (await Promise.all([
    import(`../locales/${locale}/public.po`),
    import(`../locales/${locale}/messages.po`),
  ])) as Array<{ messages: Messages }>
  i18n.loadAndActivate({ locale, messages: Object.assign({}, ...catalogs.map((part) => part.messages)) })
}

/** Renders a screen inside a one-route router (for screens with in-app links), with the usual providers. */
export async function renderWithRouter(ui: ReactElement) {
  const rootRoute = createRootRoute({ component: () => ui })
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: ['/'] }),
  })
  await router.load()
  return renderWithProviders(<RouterProvider router={router} />)
}
