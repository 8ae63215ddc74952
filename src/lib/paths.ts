import type { FileRoutesByPath } from '@tanstack/react-router'
import type { Locale } from '../../contract/locale.ts'

/** A route's path without the optional locale segment: `/{-$locale}/app/keychains/$id` → `/app/keychains/$id`. */
type WithoutLocale<P extends string> = P extends `/{-$locale}${infer Rest}`
  ? Rest extends ''
    ? '/'
    : Rest
  : P
/** An index route's path as links write it: `/app/keychains/` → `/app/keychains` (the root stays `/`). */
type WithoutSlash<P extends string> = P extends '/' ? P : P extends `${infer Rest}/` ? Rest : P
/** Parameters filled in: `/app/keychains/$id` → `/app/keychains/${string}`. */
type Filled<P extends string> = P extends `${infer Head}$${string}/${infer Tail}`
  ? `${Head}${string}/${Filled<Tail>}`
  : P extends `${infer Head}$${string}`
    ? `${Head}${string}`
    : P

/**
 * A page of the app, checked against the route tree: `/app/keychains/${id}` compiles, `/app/keychain/${id}` does
 * not. A query string may follow.
 */
/** An optional parameter, with it or without: `/app/reports/{-$report}` → `/app/reports` | `/app/reports/$report`. */
type Optional<P extends string> = P extends `${infer Head}/{-$${infer Name}}${infer Tail}`
  ? Optional<`${Head}${Tail}`> | Optional<`${Head}/$${Name}${Tail}`>
  : P
type RoutePath = Filled<
  WithoutSlash<Optional<WithoutLocale<FileRoutesByPath[keyof FileRoutesByPath]['fullPath']>>>
>
export type AppPath = RoutePath | `${RoutePath}?${string}`

/** `/app/profile` in French, `/en/app/profile` in English. */
export function localizedHref(locale: Locale, path: AppPath): string {
  if (locale === 'fr') return path
  return path === '/' ? '/en/' : `/en${path}`
}

/** A post-sign-in destination is kept only when it is a signed-in page of this site (the app or tags). */
export function safeRedirect(target: unknown): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (typeof target !== 'string' || /[\u0000-\u0020\\]/.test(target)) return null
  return /^\/(en\/)?(app|tags)(?:[/?#]|$)/.test(target) ? target : null
}
