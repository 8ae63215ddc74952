import { queryOptions } from '@tanstack/react-query'
import { tagEndpoints } from '../../contract/endpoints/tags.ts'
import { call } from '../lib/call.ts'
import { tagKeys } from './tags.ts'

/** A keychain a scanned or typed tag leads to, or null when the tag is free, lost or not the organization's. */
export type TaggedKeychain = { id: string; name: string; code: string } | null

/** The keychain of the organization's tag with this whole code (`DEM-00042`), found by the tag list's exact search. */
export const keychainOfTagCodeQuery = (organizationId: string, code: string) =>
  queryOptions({
    queryKey: tagKeys.keychainOf(organizationId, code),
    queryFn: async (): Promise<TaggedKeychain> => {
      const page = await call(tagEndpoints.list, { query: { q: code, limit: '5' } })
      const tag = page.data.find((each) => each.code === code)
      if (!tag?.key || tag.lostAt) return null
      return { id: tag.key.keychainId, name: tag.key.keychainName, code: tag.code }
    },
  })

/** The keychain of a tag by the public id its QR code carries (a scanned URL), as a member of its organization. */
export const keychainOfTagQuery = (organizationId: string, publicId: string) =>
  queryOptions({
    queryKey: ['tag-landing', publicId, 'keychain-of', organizationId] as const,
    queryFn: async (): Promise<TaggedKeychain> => {
      const landing = await call(tagEndpoints.landing, { params: { publicId } })
      if (landing.view !== 'member' || landing.organization.id !== organizationId) return null
      if (!landing.keychain || landing.tag.lostAt) return null
      return { id: landing.keychain.id, name: landing.keychain.name, code: landing.tag.code }
    },
  })
