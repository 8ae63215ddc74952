import {
  ApiTokenListSchema,
  CreatedApiTokenSchema,
  OrganizationApiTokenCreateSchema,
  OrganizationApiTokenParamsSchema,
  PersonalApiTokenCreateSchema,
} from '../api-tokens.ts'
import { IdParamsSchema } from '../common.ts'
import { endpoint } from './endpoint.ts'

/** API tokens: the caller's personal ones, and an organization's (its admins'). */
export const apiTokenEndpoints = {
  listPersonal: endpoint({ method: 'get', path: '/api-tokens', response: ApiTokenListSchema }),
  createPersonal: endpoint({
    method: 'post',
    path: '/api-tokens',
    body: PersonalApiTokenCreateSchema,
    response: CreatedApiTokenSchema,
  }),
  revokePersonal: endpoint({ method: 'delete', path: '/api-tokens/:id', params: IdParamsSchema }),
  listOrganization: endpoint({
    method: 'get',
    path: '/organizations/:id/api-tokens',
    params: IdParamsSchema,
    response: ApiTokenListSchema,
  }),
  createOrganization: endpoint({
    method: 'post',
    path: '/organizations/:id/api-tokens',
    params: IdParamsSchema,
    body: OrganizationApiTokenCreateSchema,
    response: CreatedApiTokenSchema,
  }),
  revokeOrganization: endpoint({
    method: 'delete',
    path: '/organizations/:id/api-tokens/:tokenId',
    params: OrganizationApiTokenParamsSchema,
  }),
}
