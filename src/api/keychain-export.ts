import { API_BASE_URL } from '../lib/api.ts'

/**
 * The organization's keychains and keys as a CSV file, in the import's format (a plain link: the browser
 * downloads it). The path is written out rather than read from the import's endpoint table, whose answer
 * schemas would otherwise ride on the keychain list's chunk (keychain-export.test.ts compares the two).
 */
export const keychainExportHref = `${API_BASE_URL}/keychain-export`

/** The export of a selection of the list: the rows ticked, or all matching its filter. */
export function keychainExportHrefOf(
  selection: { ids: string[] } | { filter: { q?: string | undefined; custodianId?: string | undefined } },
): string {
  const query = new URLSearchParams()
  if ('ids' in selection) query.set('ids', selection.ids.join(','))
  else {
    if (selection.filter.q) query.set('q', selection.filter.q)
    if (selection.filter.custodianId) query.set('custodianId', selection.filter.custodianId)
  }
  const search = query.toString()
  return search ? `${keychainExportHref}?${search}` : keychainExportHref
}
