import type * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { endpointTables as tables } from './all.ts'
import { endpoint, pathOf } from './endpoint.ts'
import { keychainEndpoints } from './keychains.ts'

/** The answers that are not JSON, so have no schema: a CSV file, an HTML page, a redirect. */
const notJson = new Set([
  'activityEndpoints.export',
  'calendarEndpoints.feed',
  'keychainImportEndpoints.export',
  'labelEndpoints.pdf',
  'orderEndpoints.exportTags',
  'paymentEndpoints.localPage',
  'paymentEndpoints.localOutcome',
  'transferEndpoints.receiptPdf',
  'reportEndpoints.holdingsExport',
  'reportEndpoints.overdueExport',
  'reportEndpoints.unseenExport',
  'reportEndpoints.monthlyExport',
  'placeEndpoints.labelsPdf',
  'stocktakeEndpoints.reportCsv',
  'stocktakeEndpoints.reportPdf',
  'handoverEndpoints.receiptPdf',
  'identityEndpoints.start',
  'identityEndpoints.callback',
])
const all = Object.entries(tables).flatMap(([table, entries]) =>
  Object.entries(entries).map(([name, spec]) => [`${table}.${name}`, spec] as const),
)
const pathNames = (path: string) => [...path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]).sort()
const schemaKeys = (schema: v.GenericSchema | undefined) =>
  schema && 'entries' in schema ? Object.keys(schema.entries as object).sort() : []

describe('pathOf', () => {
  it('fills each parameter, URI-encoded, and leaves a path without any as it is', () => {
    expect(pathOf('/keychains/:id/keys/:keyId', { id: 'k/1 é', keyId: 'key?1' })).toBe(
      '/keychains/k%2F1%20%C3%A9/keys/key%3F1',
    )
    expect(pathOf('/keychains')).toBe('/keychains')
  })

  it('refuses a path whose parameter is missing', () => {
    expect(() => pathOf('/keychains/:id', {})).toThrow('/keychains/:id needs its id')
  })

  it('declares an endpoint as given', () => {
    const spec = { method: 'get', path: '/health' } as const
    expect(endpoint(spec)).toBe(spec)
  })
})

describe('the endpoint tables', () => {
  it.each(all)('%s: its path names exactly the parameters its schema reads', (_, spec) => {
    // A file's name may end in its extension (`receipt.json`).
    expect(spec.path).toMatch(/^\/[a-z-]+(\/(:[A-Za-z]+|[a-z-]+(\.[a-z]+)?))*$/)
    expect(pathNames(spec.path)).toEqual(schemaKeys(spec.params))
  })

  it.each(all)(
    '%s: a read sends no body, and every JSON answer but a deletion’s has a schema',
    (name, spec) => {
      expect(['get', 'post', 'put', 'patch', 'delete']).toContain(spec.method)
      if (spec.method === 'get') expect(spec.body).toBeUndefined()
      if (spec.method !== 'delete' && !notJson.has(name)) expect(spec.response).toBeDefined()
      if (notJson.has(name)) expect(spec.response).toBeUndefined()
    },
  )

  it('declares every module’s operations, none left out', () => {
    expect(
      Object.fromEntries(Object.entries(tables).map(([name, table]) => [name, Object.keys(table).length])),
    ).toEqual({
      activityEndpoints: 5,
      apiTokenEndpoints: 6,
      authEndpoints: 3,
      calendarEndpoints: 4,
      cartEndpoints: 6,
      dashboardEndpoints: 1,
      dashboardChartEndpoints: 1,
      deviceEndpoints: 3,
      foundReportEndpoints: 4,
      handoverEndpoints: 6,
      healthEndpoints: 2,
      identityEndpoints: 9,
      keychainBulkEndpoints: 3,
      keychainImportEndpoints: 3,
      keychainEndpoints: 10,
      labelEndpoints: 2,
      memberEndpoints: 3,
      noticeEndpoints: 6,
      orderEndpoints: 12,
      organizationEndpoints: 9,
      paymentEndpoints: 3,
      placeEndpoints: 12,
      planEndpoints: 1,
      priceEndpoints: 1,
      profileEndpoints: 2,
      reportEndpoints: 10,
      scanEndpoints: 1,
      stocktakeEndpoints: 9,
      subscriptionEndpoints: 1,
      syncEndpoints: 1,
      tagEndpoints: 6,
      transferEndpoints: 15,
      webhookEndpoints: 7,
    })
  })

  it('names each operation once', () => {
    const operations = all.map(([, spec]) => `${spec.method} ${spec.path}`)
    expect(new Set(operations).size).toBe(operations.length)
  })

  it('states the keychain operations', () => {
    expect(
      Object.fromEntries(
        Object.entries(keychainEndpoints).map(([name, spec]) => [name, `${spec.method} ${spec.path}`]),
      ),
    ).toEqual({
      list: 'get /keychains',
      create: 'post /keychains',
      one: 'get /keychains/:id',
      update: 'patch /keychains/:id',
      remove: 'delete /keychains/:id',
      custodyLog: 'get /keychains/:id/custody-log',
      addKey: 'post /keychains/:id/keys',
      renameKey: 'patch /keychains/:id/keys/:keyId',
      restore: 'post /keychains/:id/restore',
      removeKey: 'delete /keychains/:id/keys/:keyId',
    })
  })
})
