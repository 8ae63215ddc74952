import { API_BASE_URL } from '../lib/api.ts'

/**
 * The organization's keychains and keys as a CSV file, in the import's format (a plain link: the browser
 * downloads it). The path is written out rather than read from the import's endpoint table, whose answer
 * schemas would otherwise ride on the keychain list's chunk (keychain-export.test.ts compares the two).
 */
export const keychainExportHref = `${API_BASE_URL}/keychain-export`
