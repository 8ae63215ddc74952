import { OidcCoverageSchema } from '../auth.ts'
import { IdParamsSchema } from '../common.ts'
import {
  IdentityDomainInputSchema,
  IdentityDomainParamsSchema,
  IdentityProviderInputSchema,
  IdentitySettingsSchema,
  OidcCallbackQuerySchema,
  OidcStartQuerySchema,
} from '../identity.ts'
import { endpoint } from './endpoint.ts'

/** An organization's own sign-in: its admins' settings, and the sign-in itself (public). */
export const identityEndpoints = {
  settings: endpoint({
    method: 'get',
    path: '/organizations/:id/identity-provider',
    params: IdParamsSchema,
    response: IdentitySettingsSchema,
  }),
  saveProvider: endpoint({
    method: 'put',
    path: '/organizations/:id/identity-provider',
    params: IdParamsSchema,
    body: IdentityProviderInputSchema,
    response: IdentitySettingsSchema,
  }),
  removeProvider: endpoint({
    method: 'delete',
    path: '/organizations/:id/identity-provider',
    params: IdParamsSchema,
  }),
  addDomain: endpoint({
    method: 'post',
    path: '/organizations/:id/identity-domains',
    params: IdParamsSchema,
    body: IdentityDomainInputSchema,
    response: IdentitySettingsSchema,
  }),
  verifyDomain: endpoint({
    method: 'post',
    path: '/organizations/:id/identity-domains/:domain/verification',
    params: IdentityDomainParamsSchema,
    response: IdentitySettingsSchema,
  }),
  removeDomain: endpoint({
    method: 'delete',
    path: '/organizations/:id/identity-domains/:domain',
    params: IdentityDomainParamsSchema,
  }),
  coverage: endpoint({
    method: 'get',
    path: '/auth/oidc/coverage',
    query: OidcStartQuerySchema,
    response: OidcCoverageSchema,
  }),
  start: endpoint({ method: 'get', path: '/auth/oidc/start', query: OidcStartQuerySchema }),
  callback: endpoint({ method: 'get', path: '/auth/oidc/callback', query: OidcCallbackQuerySchema }),
}
