import { Trans, useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { ApiError } from '../lib/api.ts'
import { isCrawler } from '../lib/crawler.ts'
import { localeOfPath } from '../lib/locale.ts'
import { localizedHref } from '../lib/paths.ts'

function FullPage({ code, title, children }: { code: number; title: ReactNode; children?: ReactNode }) {
  const home = localizedHref(localeOfPath(window.location.pathname), '/')
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-slate-50 px-6 text-center">
      <p className="text-6xl font-black text-brand-700">{code}</p>
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      {children}
      <a
        href={home}
        className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
      >
        <Trans>Back to the home page</Trans>
      </a>
    </main>
  )
}

export function NotFoundPage() {
  const { t } = useLingui()
  if (isCrawler()) return null
  document.title = `${t`Page Not Found`} · Trousseau`
  return (
    <FullPage code={404} title={<Trans>Page Not Found</Trans>}>
      <p className="max-w-md text-slate-700">
        <Trans>The page you asked for does not exist or has moved.</Trans>
      </p>
    </FullPage>
  )
}

export type FatalError = { statusCode?: number; statusMessage?: string; description?: string }

/** What the error page shows for an error a route threw: an API answer keeps its status. */
export function fatalErrorOf(error: unknown): FatalError {
  // The server's message is English and technical; the page names the status in the reader's language.
  if (error instanceof ApiError && error.status >= 400) return { statusCode: error.status }
  return {}
}

/** The full-page view of a fatal error: status code (500 by default), status message and description. */
export function ErrorPage({ error }: { error: FatalError }) {
  const { t } = useLingui()
  if (isCrawler()) return null
  const statusCode = error.statusCode ?? 500
  const named: Record<number, string> = {
    403: t`Access denied`,
    404: t`Page Not Found`,
    500: t`Internal Server Error`,
  }
  const statusMessage = error.statusMessage ?? named[statusCode] ?? t`An error occurred.`
  return (
    <FullPage code={statusCode} title={statusMessage}>
      <p className="max-w-md text-slate-700">
        {error.description ?? <Trans>Something went wrong on our side. Please try again in a moment.</Trans>}
      </p>
    </FullPage>
  )
}
