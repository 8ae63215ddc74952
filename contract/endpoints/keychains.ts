import { IdParamsSchema } from '../common.ts'
import {
  CustodyLogSchema,
  KeyCreateSchema,
  KeychainCreateSchema,
  KeychainListQuerySchema,
  KeychainPageSchema,
  KeychainSchema,
  KeychainUpdateSchema,
  KeychainWriteHeadersSchema,
  KeyParamsSchema,
  KeySchema,
  KeyUpdateSchema,
} from '../keychains.ts'
import { endpoint } from './endpoint.ts'

/** The keychain and key operations of the selected organization. */
export const keychainEndpoints = {
  list: endpoint({
    method: 'get',
    path: '/keychains',
    query: KeychainListQuerySchema,
    response: KeychainPageSchema,
  }),
  create: endpoint({
    method: 'post',
    path: '/keychains',
    headers: KeychainWriteHeadersSchema,
    body: KeychainCreateSchema,
    response: KeychainSchema,
  }),
  one: endpoint({ method: 'get', path: '/keychains/:id', params: IdParamsSchema, response: KeychainSchema }),
  update: endpoint({
    method: 'patch',
    path: '/keychains/:id',
    params: IdParamsSchema,
    body: KeychainUpdateSchema,
    response: KeychainSchema,
  }),
  remove: endpoint({ method: 'delete', path: '/keychains/:id', params: IdParamsSchema }),
  /** Brings back a deleted keychain with its keys, and their tags when they are still free. */
  restore: endpoint({
    method: 'post',
    path: '/keychains/:id/restore',
    params: IdParamsSchema,
    response: KeychainSchema,
  }),
  custodyLog: endpoint({
    method: 'get',
    path: '/keychains/:id/custody-log',
    params: IdParamsSchema,
    response: CustodyLogSchema,
  }),
  addKey: endpoint({
    method: 'post',
    path: '/keychains/:id/keys',
    params: IdParamsSchema,
    headers: KeychainWriteHeadersSchema,
    body: KeyCreateSchema,
    response: KeySchema,
  }),
  renameKey: endpoint({
    method: 'patch',
    path: '/keychains/:id/keys/:keyId',
    params: KeyParamsSchema,
    body: KeyUpdateSchema,
    response: KeySchema,
  }),
  removeKey: endpoint({ method: 'delete', path: '/keychains/:id/keys/:keyId', params: KeyParamsSchema }),
}
