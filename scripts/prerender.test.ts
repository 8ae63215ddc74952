import { describe, expect, it } from 'vitest'
import { buildLandingScript, staticTemplate } from './prerender.ts'

describe('the static landing page', () => {
  it('has one small script with no framework in it', () => {
    const { file, code } = buildLandingScript()
    expect(file).toMatch(/^assets\/landing-[\w-]{8}\.js$/)
    // A few lines: the page's language, the language link, the signed-in visitor, the service worker.
    expect(code.length).toBeLessThan(3000)
    expect(code).not.toMatch(/react|preact|createElement|hydrate/i)
    expect(code).toContain('/sw.js')
    expect(buildLandingScript().file).toBe(file)
  })

  it('loads that script instead of the module entry and its preloads', () => {
    const template =
      '<head><script>theme()</script><script type="module" crossorigin src="/assets/public-1.js"></script>\n' +
      '<link rel="modulepreload" crossorigin href="/assets/react-2.js">\n</head><body><div id="root"></div></body>'
    expect(staticTemplate(template, 'assets/landing-3.js')).toBe(
      '<head><script>theme()</script>\n<script defer src="/assets/landing-3.js"></script>\n</head>' +
        '<body><div id="root"></div></body>',
    )
  })
})
