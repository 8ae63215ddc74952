import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../../tests/server/harness.ts'
import { renderApiDocs } from './api-docs.ts'
import { openApiPath, operationIdOf } from './openapi.ts'
import { contentSecurityPolicy } from './security-headers.ts'

const t = setupTestApp()

describe('GET /api/docs', () => {
  it('is served as HTML under the product’s Content-Security-Policy, with no script and nothing from elsewhere', async () => {
    const response = await t.get('/api/docs')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    const csp = response.headers.get('content-security-policy')
    expect(csp).toBe(contentSecurityPolicy(t.config))
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    const page = await response.text()
    expect(page).not.toMatch(/<script|\son[a-z]+=|\sstyle=/i)
    expect(page.match(/(?:href|src)="([^"]+)"/g)?.every((link) => /="(#|\/api\/)/.test(link))).toBe(true)
    expect(page).toContain('<link rel="stylesheet" href="/api/docs/docs.css">')
  })

  it('lists every operation of the document, by tag, with its security and error codes', async () => {
    const page = await (await t.get('/api/docs')).text()
    const document = await (await t.get('/api/openapi.json')).json()
    expect(t.registry.routes.length).toBeGreaterThan(100)
    for (const route of t.registry.routes) {
      const id = operationIdOf(route)
      const start = page.indexOf(`<article class="operation" id="${id}">`)
      expect(start, `${route.method} ${route.path}`).toBeGreaterThan(-1)
      const article = page.slice(start, page.indexOf('</article>', start))
      expect(article).toContain(
        `${route.method.toUpperCase()}</span> <code>${openApiPath(route.path)}</code>`,
      )
      const operation = document.paths[openApiPath(route.path)][route.method]
      for (const code of operation.responses['401']['x-error-codes'])
        expect(article).toContain(`<code>${code}</code>`)
      expect(article).toContain(route.access === 'public' ? 'security: []' : 'session cookie')
    }
    for (const tag of new Set(t.registry.routes.map((route) => route.tag)))
      expect(page).toContain(`<section id="tag-${tag}"`)
    const transfers = page.slice(page.indexOf('id="postKeychainsIdTransfers"'))
    expect(transfers.slice(0, transfers.indexOf('</article>'))).toContain(
      '<code>transfer_allowance_exceeded</code>',
    )
  })

  it('serves its own stylesheet, cacheable, under the same policy', async () => {
    const response = await t.get('/api/docs/docs.css')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(response.headers.get('content-security-policy')).toBe(contentSecurityPolicy(t.config))
    expect(await response.text()).toContain('.operation{')
  })

  it('escapes what it renders', () => {
    const page = renderApiDocs({
      info: { title: 'T', version: '<1>' },
      paths: {
        '/x': {
          get: {
            operationId: 'getX',
            summary: '<img src=x onerror=alert(1)> `code`',
            description: 'Open & free',
            tags: ['a"b'],
            security: [],
            responses: { 200: { description: '<b>ok</b>' } },
          },
        },
      },
    })
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt; <code>code</code>')
    expect(page).toContain('Open &amp; free')
    expect(page).toContain('id="tag-a&quot;b"')
    expect(page).toContain('&lt;b&gt;ok&lt;/b&gt;')
    expect(page).not.toContain('<img')
  })
})
