import { Trans } from '@lingui/react/macro'
import type { Tag } from '../../contract/tags.ts'
import { AppLink } from './AppLink.tsx'

/** Tags with their printed look (code on its colours), name and the key they are on. */
export function TagTable({
  tags,
  tagHref,
  keychainHref,
}: {
  tags: Tag[]
  tagHref: (tag: Tag) => string
  keychainHref?: (id: string) => string
}) {
  return (
    <ul className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      {tags.map((tag) => (
        <li key={tag.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
          <span
            className="rounded-md px-2 py-1 font-mono text-sm font-bold ring-1 ring-slate-300"
            style={{ color: tag.foregroundColor, backgroundColor: tag.backgroundColor }}
          >
            {tag.code}
          </span>
          <AppLink href={tagHref(tag)} className="font-medium text-slate-900 hover:underline">
            {tag.name}
          </AppLink>
          <span className="ml-auto text-sm text-slate-700">
            {tag.key && !keychainHref ? (
              `${tag.key.keychainName} · ${tag.key.name}`
            ) : tag.key && keychainHref ? (
              <AppLink href={keychainHref(tag.key.keychainId)}>
                {tag.key.keychainName} · {tag.key.name}
              </AppLink>
            ) : (
              <Trans>Not on a key yet</Trans>
            )}
          </span>
        </li>
      ))}
    </ul>
  )
}
