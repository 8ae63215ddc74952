import { Trans } from '@lingui/react/macro'
import { ArrowRight, CalendarClock, KeyRound, QrCode, WifiOff } from 'lucide-react'
import type { ReactNode } from 'react'
import { Logo } from '../../ui/Logo.tsx'

function Feature({
  icon: Icon,
  title,
  children,
}: {
  icon: typeof KeyRound
  title: ReactNode
  children: ReactNode
}) {
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <Icon aria-hidden className="mb-4 size-7 text-brand-700" />
      <h3 className="mb-2 text-lg font-semibold text-slate-900">{title}</h3>
      <p className="text-slate-700">{children}</p>
    </li>
  )
}

/** The public landing page; the sign-in link and the language switch come from the route. */
export function LandingScreen({
  signInHref,
  languageSwitch,
}: {
  signInHref: string
  languageSwitch: ReactNode
}) {
  return (
    <div className="min-h-dvh bg-gradient-to-b from-brand-50 to-slate-50">
      <header className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-4 sm:px-6">
        <Logo />
        <div className="flex items-center gap-1 sm:gap-2">
          {languageSwitch}
          <a
            href={signInHref}
            className="inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-semibold whitespace-nowrap text-brand-800 hover:bg-brand-100 sm:px-4"
          >
            <Trans>Sign in</Trans>
          </a>
        </div>
      </header>
      <main>
        <section className="mx-auto max-w-6xl px-4 pt-12 pb-16 sm:px-6 sm:pt-20">
          <h1 className="max-w-3xl text-4xl font-black tracking-tight text-slate-900 sm:text-5xl">
            <Trans>Know where every key is, and who holds it.</Trans>
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-slate-700">
            <Trans>
              Trousseau tracks your organization's keychains from the office to the basement: print QR tags,
              scan them with a phone, hand keychains over for a set time and get them back.
            </Trans>
          </p>
          <a
            href={signInHref}
            className="mt-8 inline-flex min-h-12 items-center gap-2 rounded-lg bg-brand-700 px-6 text-base font-semibold text-white hover:bg-brand-800"
          >
            <Trans>Get started</Trans>
            <ArrowRight aria-hidden className="size-5" />
          </a>
        </section>
        <section className="mx-auto max-w-6xl px-4 pb-20 sm:px-6">
          <h2 className="sr-only">
            <Trans>What Trousseau does</Trans>
          </h2>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Feature icon={KeyRound} title={<Trans>Keychains and keys</Trans>}>
              <Trans>
                Every keychain, its keys and its custodian in one place, with the full custody history.
              </Trans>
            </Feature>
            <Feature icon={QrCode} title={<Trans>Printed QR tags</Trans>}>
              <Trans>
                Order durable tags in your colours; any phone camera opens the keychain they belong to.
              </Trans>
            </Feature>
            <Feature icon={CalendarClock} title={<Trans>Planned handovers</Trans>}>
              <Trans>
                Authorize a transfer for a date window; pickup and return are confirmed by a scan.
              </Trans>
            </Feature>
            <Feature icon={WifiOff} title={<Trans>Works without network</Trans>}>
              <Trans>
                Install it on your phone: scans and pickups made offline are sent once the network is back.
              </Trans>
            </Feature>
          </ul>
        </section>
      </main>
      <footer className="border-t border-slate-200 py-8 text-center text-sm text-slate-600">
        <Trans>Trousseau — key management for organizations.</Trans>
      </footer>
    </div>
  )
}
