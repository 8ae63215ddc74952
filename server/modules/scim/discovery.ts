import { SCIM_LIST_SCHEMA, SCIM_PAGE_MAX, SCIM_USER_SCHEMA } from '../../../contract/scim.ts'

/** What this service provider does (RFC 7643 §5): patch and filter yes, bulk, sort, etag and passwords no. */
export function serviceProviderConfig(base: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: `${base}/ServiceProviderConfig`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_PAGE_MAX },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'An organization token of kind scim, made by an admin in the organization settings.',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  }
}

const attribute = (
  name: string,
  extra: {
    type?: string
    required?: boolean
    uniqueness?: string
    mutability?: string
    multiValued?: boolean
  },
) => ({
  name,
  type: extra.type ?? 'string',
  multiValued: extra.multiValued ?? false,
  required: extra.required ?? false,
  caseExact: false,
  mutability: extra.mutability ?? 'readWrite',
  returned: 'default',
  uniqueness: extra.uniqueness ?? 'none',
})

/** The part of the core User schema (RFC 7643 §4.1) this product keeps. */
export function userSchema(base: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id: SCIM_USER_SCHEMA,
    name: 'User',
    description: 'A person of the organization; userName is their e-mail address.',
    attributes: [
      attribute('userName', { required: true, uniqueness: 'server' }),
      {
        ...attribute('name', { type: 'complex' }),
        subAttributes: [attribute('givenName', {}), attribute('familyName', {}), attribute('formatted', {})],
      },
      attribute('displayName', { mutability: 'readOnly' }),
      {
        ...attribute('emails', { type: 'complex', multiValued: true, mutability: 'readOnly' }),
        subAttributes: [
          attribute('value', {}),
          attribute('type', {}),
          attribute('primary', { type: 'boolean' }),
        ],
      },
      attribute('active', { type: 'boolean' }),
    ],
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${SCIM_USER_SCHEMA}` },
  }
}

export function userResourceType(base: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'The people of the organization',
    schema: SCIM_USER_SCHEMA,
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
  }
}

export const listOf = (resources: unknown[]) => ({
  schemas: [SCIM_LIST_SCHEMA],
  totalResults: resources.length,
  itemsPerPage: resources.length,
  startIndex: 1,
  Resources: resources,
})
