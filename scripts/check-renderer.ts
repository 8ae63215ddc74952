// The browser build runs React: react-dom is bundled and no other renderer is (a compatibility layer aliased
// in place of react-dom would pass every component test, which run React, and ship something else).

/** Packages that render components to the DOM in place of react-dom (directly or through a React-compatible API). */
const OTHER_RENDERERS = [
  'preact',
  '@preact/compat',
  '@preact/signals',
  'inferno',
  'inferno-compat',
  'nervjs',
  'react-lite',
  'rax',
  'million',
  'solid-js',
  'vue',
  'svelte',
]

/** What react-dom's client build registers itself as (its DevTools hook): present in any react-dom bundle. */
const REACT_DOM_MARK = /rendererPackageName:\s*["'`]react-dom["'`]/

/** The problems of a build's renderer: empty when it bundles react-dom (its client) and no other renderer. */
export function rendererProblems(packages: readonly string[], code: Iterable<string>): string[] {
  const problems: string[] = []
  if (!packages.includes('react-dom')) problems.push('react-dom is not in the browser build')
  if (!packages.includes('react')) problems.push('react is not in the browser build')
  const others = packages.filter((name) => OTHER_RENDERERS.includes(name))
  if (others.length > 0) problems.push(`another renderer is in the browser build: ${others.join(', ')}`)
  let marked = false
  for (const text of code) if (REACT_DOM_MARK.test(text)) marked = true
  if (!marked) problems.push("no chunk of the browser build holds react-dom's client")
  return problems
}
