import type { Plugin } from 'vite'

// The browser build writes down which npm packages it bundled (`.vite/bundled-packages.json`), so that
// `npm run test:bundle` can check the renderer users run is the one the component tests and the prerender run.

export const BUNDLED_PACKAGES_FILE = '.vite/bundled-packages.json'

/** The package of a module id: `/x/node_modules/@scope/name/dist/a.js` → `@scope/name`; null for our own code. */
export function packageOfModule(id: string): string | null {
  const match = /.*[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(id)
  return match?.[1]?.replace('\\', '/') ?? null
}

export function bundledPackages(): Plugin {
  return {
    name: 'trousseau-bundled-packages',
    apply: 'build',
    generateBundle(_, bundle) {
      const packages = new Set<string>()
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue
        for (const id of output.moduleIds) {
          const name = packageOfModule(id)
          if (name) packages.add(name)
        }
      }
      this.emitFile({
        type: 'asset',
        fileName: BUNDLED_PACKAGES_FILE,
        source: `${JSON.stringify([...packages].sort(), null, 1)}\n`,
      })
    },
  }
}
