import './styles.css'
import { I18nProvider } from '@lingui/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { fetchProfile } from './api/auth.ts'
import { createQueryClient, persistCache } from './app/query.ts'
import { createAppRouter } from './app/router.tsx'
import { isUnauthenticated, restoreSession, setSignedInProfile } from './app/session.ts'
import { warmDateFormats } from './lib/format.ts'
import { activateLocale, i18n } from './lib/i18n.ts'
import { afterLoadWhenIdle } from './lib/idle.ts'
import { localeOfPath, readLocaleCookie, swapLocaleInPath } from './lib/locale.ts'
import { recoverFromChunkErrors } from './pwa/reload.ts'

recoverFromChunkErrors()

async function boot() {
  // The locale cookie decides where a visitor lands when they open the French default address.
  const saved = readLocaleCookie()
  if (saved === 'en' && localeOfPath(location.pathname) === 'fr') {
    history.replaceState(
      history.state,
      '',
      `${swapLocaleInPath(location.pathname, 'en')}${location.search}${location.hash}`,
    )
  }
  // The session is asked for at once, alongside the catalog and the cached answers, not after them.
  const profile = fetchProfile()
  profile.catch(() => {}) // handled by restoreSession, once the cache is back
  // A 401 on any call means the session ended (idle or absolute limit, disabled account): sign out here too.
  const queryClient = createQueryClient((error) => {
    if (!isUnauthenticated(error)) return
    setSignedInProfile(queryClient, null)
    void router.invalidate()
  })
  const cacheRestored = persistCache(queryClient)
  // The requests are out: the route tree is built in a task of its own, not in the one that evaluated the code.
  await new Promise((resolve) => setTimeout(resolve, 0))
  const router = createAppRouter(
    queryClient,
    cacheRestored.then(() => restoreSession(queryClient, profile)),
  )
  // The page's own code loads while the session is checked: the router would only ask for it after /app's
  // check, one more round trip before anything shows.
  for (const route of router.getMatchedRoutes(location.pathname)[0])
    router.loadRouteChunk(route)?.catch(() => {}) // the router loads it again, and reports a failure
  const ready = Promise.all([activateLocale(localeOfPath(location.pathname)), cacheRestored])
  warmDateFormats(localeOfPath(location.pathname))
  await ready
  const root = document.getElementById('root')!
  const app = createRoot(root)
  // The first render as a transition: React renders it in slices of a few milliseconds and lets the browser
  // breathe between them, rather than in one long task that blocks input on a slow phone.
  startTransition(() =>
    app.render(
      <StrictMode>
        <I18nProvider i18n={i18n}>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </I18nProvider>
      </StrictMode>,
    ),
  )
  // The same mark as the prerendered pages': from here React answers what the visitor does.
  root.dataset.ready = 'true'
  // The service worker and the new-build checks wait for an idle page, and so does their code.
  afterLoadWhenIdle(() => void import('./pwa/register.ts').then(({ startPwa }) => startPwa()))
}

void boot()
