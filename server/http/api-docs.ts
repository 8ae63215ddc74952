import type { Hono } from 'hono'
import { escapeHtml } from '../html.ts'
import type { AppEnv } from './env.ts'

/**
 * The API docs page (`/api/docs`): the OpenAPI document rendered on the server as plain semantic HTML with one
 * small stylesheet of our own (`/api/docs/docs.css`). No script, no CDN, nothing inline: it runs under the
 * product's Content-Security-Policy as it is. Built once per process (the route table does not change).
 */

type Json = Record<string, unknown>
type Operation = {
  operationId: string
  summary: string
  description: string
  tags: string[]
  security: Json[]
  parameters?: { name: string; in: string; required: boolean; schema: Json }[]
  requestBody?: { content: Record<string, { schema: Json }> }
  responses: Record<
    string,
    { description: string; content?: Record<string, { schema: Json }>; 'x-error-codes'?: string[] }
  >
}

/** `code` spans for the backticked parts of a description, everything else escaped. */
const inline = (text: string) =>
  escapeHtml(text).replace(/`([^`]+)`/g, (_, code: string) => `<code>${code}</code>`)

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete']

function typeOf(schema: Json | undefined): string {
  if (!schema) return ''
  if (typeof schema.type === 'string') {
    const format = typeof schema.format === 'string' ? ` (${schema.format})` : ''
    return `${schema.type}${format}`
  }
  if (Array.isArray(schema.enum)) return schema.enum.map(String).join(' | ')
  if (Array.isArray(schema.anyOf)) return schema.anyOf.map((part) => typeOf(part as Json)).join(' | ')
  return 'value'
}

const schemaBlock = (label: string, schema: Json) =>
  `<details><summary>${escapeHtml(label)}</summary><pre><code>${escapeHtml(JSON.stringify(schema, null, 2))}</code></pre></details>`

function securityText(security: Json[]): string {
  if (security.length === 0) return 'None (<code>security: []</code>): open to anyone.'
  return security
    .map((scheme) => Object.keys(scheme)[0])
    .map((name) =>
      name === 'bearerToken' ? 'API token (<code>Authorization: Bearer</code>)' : 'session cookie',
    )
    .join(' or ')
}

function renderOperation(method: string, path: string, operation: Operation): string {
  const parts = [
    `<article class="operation" id="${escapeHtml(operation.operationId)}">`,
    `<h3><span class="method method-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>`,
    `<p>${inline(operation.summary)}</p>`,
    `<dl class="facts"><dt>Who</dt><dd>${inline(operation.description)}</dd>`,
    `<dt>Security</dt><dd>${securityText(operation.security)}</dd></dl>`,
  ]
  if (operation.parameters?.length) {
    parts.push('<h4>Parameters</h4><table><thead><tr><th scope="col">Name</th><th scope="col">In</th>')
    parts.push('<th scope="col">Required</th><th scope="col">Type</th></tr></thead><tbody>')
    for (const parameter of operation.parameters) {
      parts.push(
        `<tr><td><code>${escapeHtml(parameter.name)}</code></td><td>${escapeHtml(parameter.in)}</td>`,
        `<td>${parameter.required ? 'yes' : 'no'}</td><td>${escapeHtml(typeOf(parameter.schema))}</td></tr>`,
      )
    }
    parts.push('</tbody></table>')
  }
  const body = operation.requestBody?.content['application/json']?.schema
  if (body) parts.push('<h4>Request body</h4>', schemaBlock('JSON schema of the body', body))
  parts.push('<h4>Responses</h4><table class="responses"><thead><tr><th scope="col">Status</th>')
  parts.push('<th scope="col">Error codes</th><th scope="col">When</th></tr></thead><tbody>')
  for (const [status, response] of Object.entries(operation.responses)) {
    const codes = (response['x-error-codes'] ?? [])
      .map((code) => `<code>${escapeHtml(code)}</code>`)
      .join(' ')
    const schema = Number(status) < 400 ? response.content?.['application/json']?.schema : undefined
    parts.push(
      `<tr><td>${escapeHtml(status)}</td><td>${codes}</td><td>${inline(response.description)}`,
      schema ? schemaBlock('JSON schema of the answer', schema) : '',
      '</td></tr>',
    )
  }
  parts.push('</tbody></table></article>')
  return parts.join('')
}

/** The page, from an OpenAPI 3.1 document: operations grouped by tag, in the order the tags come. */
export function renderApiDocs(document: Json): string {
  const info = document.info as { title: string; version: string }
  const paths = document.paths as Record<string, Record<string, Operation>>
  const byTag = new Map<string, { method: string; path: string; operation: Operation }[]>()
  for (const [path, methods] of Object.entries(paths)) {
    for (const method of METHOD_ORDER) {
      const operation = methods[method]
      if (!operation) continue
      const tag = operation.tags[0] ?? 'other'
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, operation }])
    }
  }
  const toc = [...byTag.keys()]
    .map((tag) => `<li><a href="#tag-${escapeHtml(tag)}">${escapeHtml(tag)}</a></li>`)
    .join('')
  const sections = [...byTag.entries()].map(
    ([tag, operations]) =>
      `<section id="tag-${escapeHtml(tag)}" aria-labelledby="heading-${escapeHtml(tag)}"><h2 id="heading-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${operations.map((entry) => renderOperation(entry.method, entry.path, entry.operation)).join('')}</section>`,
  )
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} ${escapeHtml(info.version)}</title>
<link rel="stylesheet" href="/api/docs/docs.css"></head>
<body><header><h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>
<p>Every operation below is under <code>/api</code>. The machine-readable document is <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>
<h2>Authentication</h2>
<ul><li><strong>Session cookie</strong>: what signing in sets in the browser. State-changing requests with it must come from a trusted <code>Origin</code>.</li>
<li><strong>API token</strong>: <code>Authorization: Bearer trs_…</code>. A <em>personal</em> token (profile page) acts as its user, with their role in their selected organization; an <em>organization</em> token (organization page, admins) acts in that organization only, with the role chosen when it was made, and is refused on a person's own routes. Tokens are shown once, can expire, are revoked at once, and are rate-limited per token (<code>429 rate_limited</code> with <code>Retry-After</code>). A request with a bearer token is authenticated by it alone: an unknown, revoked or expired token answers <code>401</code>.</li></ul>
<h2>Errors</h2>
<p>Errors answer <code>{"error": {"code", "message"}}</code>; each operation lists its codes. Another organization's resource answers <code>404</code>, never <code>403</code>.</p>
<nav aria-label="Operations by tag"><h2>Contents</h2><ul>${toc}</ul></nav></header>
<main>${sections.join('')}</main></body></html>`
}

const STYLESHEET = `:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.5}
body{max-width:72rem;margin:0 auto;padding:1rem 1.5rem}
h1 small{font-weight:400;font-size:.6em;opacity:.7}
nav ul{columns:14rem;padding-left:1.2rem}
section{border-top:2px solid #8884;margin-top:2rem}
.operation{border:1px solid #8885;border-radius:.5rem;padding:.25rem 1rem 1rem;margin:1rem 0}
.method{display:inline-block;min-width:4.5em;font-family:ui-monospace,monospace;font-size:.8em;padding:.1em .4em;border-radius:.3em;background:#2563eb;color:#fff;text-align:center}
.method-post{background:#15803d}.method-put,.method-patch{background:#a16207}.method-delete{background:#b91c1c}
code{font-family:ui-monospace,monospace;font-size:.92em}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{border:1px solid #8885;padding:.3rem .5rem;text-align:left;vertical-align:top}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}.facts dd{margin:0}
pre{overflow:auto;max-height:28rem;background:#8881;padding:.5rem;border-radius:.3rem}
`

/**
 * `GET /api/docs` and its stylesheet, on the API router beside `/api/openapi.json` (not operations of the API
 * themselves, so not in its document). `document` builds the OpenAPI document; the page is made on first ask.
 */
export function mountApiDocs(api: Hono<AppEnv>, document: () => Json): void {
  let page: string | undefined
  api.get('/docs', (c) => {
    page ??= renderApiDocs(document())
    c.header('Cache-Control', 'no-cache')
    return c.html(page)
  })
  api.get('/docs/docs.css', (c) => {
    c.header('Cache-Control', 'public, max-age=3600')
    return c.body(STYLESHEET, 200, { 'Content-Type': 'text/css; charset=utf-8' })
  })
}
