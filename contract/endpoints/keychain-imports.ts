import { KeychainExportQuerySchema } from '../keychain-bulk.ts'
import {
  ImportHeadersSchema,
  ImportPreviewSchema,
  ImportRequestSchema,
  ImportResultSchema,
} from '../keychain-import.ts'
import { endpoint } from './endpoint.ts'

/** The selected organization's keychains and keys as a CSV file: preview and import one, export them. */
export const keychainImportEndpoints = {
  /** Parses and checks every row against the organization's data; writes nothing. */
  preview: endpoint({
    method: 'post',
    path: '/keychain-imports/previews',
    body: ImportRequestSchema,
    response: ImportPreviewSchema,
  }),
  /** Checks again and creates every keychain and key in one transaction (all or nothing), once per key. */
  commit: endpoint({
    method: 'post',
    path: '/keychain-imports',
    headers: ImportHeadersSchema,
    body: ImportRequestSchema,
    response: ImportResultSchema,
  }),
  /** `text/csv`, streamed, in the import's format; all keychains, or a selection of the list (`ids` or its filter). */
  export: endpoint({ method: 'get', path: '/keychain-export', query: KeychainExportQuerySchema }),
}
