import { describe, expect, it } from 'vitest'
import { rendererProblems } from './check-renderer.ts'
import { packageOfModule } from './vite-bundled-packages.ts'

const REACT_DOM_CHUNK =
  'var i={bundleType:0,version:"19.2.0",rendererPackageName:`react-dom`,currentDispatcherRef:a}'

describe('the browser build’s renderer', () => {
  it('is react-dom, with react, and nothing else', () => {
    expect(
      rendererProblems(['@tanstack/react-router', 'react', 'react-dom', 'scheduler'], [REACT_DOM_CHUNK]),
    ).toEqual([])
  })

  it('fails on a Preact build (react aliased to preact/compat)', () => {
    const problems = rendererProblems(['@tanstack/react-router', 'preact'], ['var n=preact.options'])
    expect(problems).toEqual([
      'react-dom is not in the browser build',
      'react is not in the browser build',
      'another renderer is in the browser build: preact',
      "no chunk of the browser build holds react-dom's client",
    ])
  })

  it('fails when a second renderer rides along with react-dom', () => {
    expect(rendererProblems(['preact', 'react', 'react-dom'], [REACT_DOM_CHUNK])).toEqual([
      'another renderer is in the browser build: preact',
    ])
  })

  it('names the package of a module, scoped or not, and none for our own code', () => {
    expect(packageOfModule('/w/node_modules/react-dom/cjs/react-dom-client.production.js')).toBe('react-dom')
    expect(packageOfModule('/w/node_modules/preact/compat/dist/compat.module.js')).toBe('preact')
    expect(packageOfModule('/w/node_modules/a/node_modules/@tanstack/query-core/build/x.js')).toBe(
      '@tanstack/query-core',
    )
    expect(packageOfModule('C:\\w\\node_modules\\@lingui\\core\\dist\\index.mjs')).toBe('@lingui/core')
    expect(packageOfModule('/w/src/main.tsx')).toBeNull()
  })
})
