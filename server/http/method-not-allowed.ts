import type { RouteRegistry } from './route-spec.ts'

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The methods a path under /api answers, from the route registry (GET brings HEAD): what a 405 lists in
 * `Allow` when a known path is called with another method. Empty for an unknown path (a 404).
 */
export function allowedMethodsOf(registry: RouteRegistry): (path: string) => string[] {
  let patterns: Array<{ path: RegExp; method: string }> | null = null
  return (path) => {
    patterns ??= registry.routes.map((spec) => ({
      path: new RegExp(`^${escapeRegExp(spec.path).replace(/:[A-Za-z0-9_]+/g, '[^/]+')}/?$`),
      method: spec.method.toUpperCase(),
    }))
    const methods = new Set(
      patterns.filter((pattern) => pattern.path.test(path)).map((pattern) => pattern.method),
    )
    if (methods.has('GET')) methods.add('HEAD')
    return [...methods].sort()
  }
}
