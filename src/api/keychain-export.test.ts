import { expect, it } from 'vitest'
import { keychainImportEndpoints } from '../../contract/endpoints/keychain-imports.ts'
import { API_BASE_URL } from '../lib/api.ts'
import { keychainExportHref } from './keychain-export.ts'

it("links the contract's export path", () => {
  expect(keychainExportHref).toBe(`${API_BASE_URL}${keychainImportEndpoints.export.path}`)
})
