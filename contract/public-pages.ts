import type { Locale } from './locale.ts'

export type PublicPageName = 'landing' | 'sign-in'

/**
 * The pages prerendered at build time (real HTML before any JavaScript), with the paths the server answers
 * them on and the file of the build that holds each.
 */
export const PUBLIC_PAGES: ReadonlyArray<{
  page: PublicPageName
  locale: Locale
  paths: readonly string[]
  file: string
}> = [
  { page: 'landing', locale: 'fr', paths: ['/'], file: 'pages/fr/index.html' },
  { page: 'landing', locale: 'en', paths: ['/en', '/en/'], file: 'pages/en/index.html' },
  { page: 'sign-in', locale: 'fr', paths: ['/sign-in', '/sign-in/'], file: 'pages/fr/sign-in.html' },
  { page: 'sign-in', locale: 'en', paths: ['/en/sign-in', '/en/sign-in/'], file: 'pages/en/sign-in.html' },
]
