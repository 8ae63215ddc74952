import { keychainImportEndpoints } from '../../../contract/endpoints/keychain-imports.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { idempotentInOrganization } from '../../http/organization-write.ts'
import { parseKeychainCsv } from './csv.ts'
import { keychainCsv } from './export.ts'
import { commitImport, previewImport } from './service.ts'

/** The selected organization's keychains as a CSV file: preview an import, import it, export them. */
export function keychainImportRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  api.route(
    {
      ...keychainImportEndpoints.preview,
      summary:
        'Read a keychain CSV and check every row against the organization (members, tags, names); writes nothing',
      access: inSelectedOrganization('create__keychain'),
      responses: {
        200: { description: 'Counts, every row error with its line and column, the first keychains' },
        400: {
          description:
            '`csv_invalid`: not CSV, no rows, an unknown column, too many rows or empty rows, a row too long',
        },
        413: { description: 'The file is over the upload limit' },
      },
    },
    async (c, { organization, body }) =>
      c.json(await previewImport(db, organization.organizationId, body.csv), 200),
  )

  api.route(
    {
      ...keychainImportEndpoints.commit,
      summary:
        'Import a keychain CSV: checks it again and creates every keychain and key in one transaction, once per Idempotency-Key',
      access: inSelectedOrganization('create__keychain'),
      responses: {
        201: { description: 'How many keychains, keys and tags were imported' },
        400: {
          description: '`import_rows_invalid` (nothing written; `issues` by `line:column`) or `csv_invalid`',
        },
        409: { description: 'A tag of the file was put on a key meanwhile' },
        413: { description: 'The file is over the upload limit' },
        422: { description: 'The Idempotency-Key was used for another request' },
      },
    },
    async (c, input) => {
      // Read before the transaction: a large file is parsed over several turns of the event loop.
      const file = await parseKeychainCsv(input.body.csv)
      return idempotentInOrganization(
        c,
        db,
        { ...input, now: deps.clock.now() },
        { name: 'POST /keychain-imports', status: 201 },
        (tx, { organizationId, userId, now }) =>
          commitImport(tx, { organizationId, actorId: userId, file, now }),
      )
    },
  )

  api.route(
    {
      ...keychainImportEndpoints.export,
      summary:
        "The organization's keychains and keys as CSV, in the import's format, streamed; a selection with `ids` (comma-separated, at most 500) or the list's `q` and `custodianId`",
      access: inSelectedOrganization('read__keychain'),
      responses: { 200: { description: 'text/csv; charset=utf-8, as an attachment' } },
    },
    async (c, { organization, query }) =>
      c.body(keychainCsv(db, organization.organizationId, query), 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': 'attachment; filename="keychains.csv"',
      }),
  )
}
