import { act, fireEvent, screen, within } from '@testing-library/react'
import type { ReactElement } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ActivityEntry, ActivityRefs } from '../../../contract/activity.ts'
import { offerText, signedCode } from '../../../contract/handover-codes.ts'
import { renderWithProviders, renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { type ActivityFilter, activityExportHref } from '../../api/activity.ts'
import { AbilityProvider } from '../../lib/ability.tsx'
import { ActivityScreen } from './ActivityScreen.tsx'

const LEA = {
  id: '00000000-0000-4000-8000-00000000000a',
  email: 'lea@example.com',
  firstName: 'Léa',
  lastName: 'Dupont',
}
const MARC = {
  id: '00000000-0000-4000-8000-00000000000b',
  email: 'marc@example.com',
  firstName: 'Marc',
  lastName: 'Petit',
}
const GONE = '00000000-0000-4000-8000-00000000000c'
const CAVE = '00000000-0000-4000-8000-0000000000c1'
const REMISE = '00000000-0000-4000-8000-0000000000c2'
const TAG = '00000000-0000-4000-8000-0000000000d1'
const TRANSFER = '00000000-0000-4000-8000-0000000000e1'

const entry = (seq: number, overrides: Partial<ActivityEntry> = {}): ActivityEntry => ({
  seq,
  kind: 'transfer.picked_up',
  actor: LEA,
  serverTime: '2030-01-15T10:00:00.000Z',
  clientTime: null,
  fromQueue: false,
  keychainIds: [],
  tagIds: [],
  transferIds: [],
  payload: {},
  ...overrides,
})

const REFS: ActivityRefs = {
  keychains: {
    [CAVE]: { name: 'Cave 12', deleted: false },
    [REMISE]: { name: 'Remise', deleted: true },
  },
  tags: { [TAG]: { code: 'AGC-00042', name: 'Porte' } },
  people: { [LEA.id]: LEA, [MARC.id]: MARC },
  transfers: { [TRANSFER]: { recipientId: MARC.id, fromDate: '2030-02-01', toDate: '2030-02-03' } },
}

/** One page of each kind the screen words with care, newest first. */
const STORY: ActivityEntry[] = [
  entry(9, {
    kind: 'transfer.picked_up',
    actor: MARC,
    keychainIds: [CAVE],
    transferIds: [TRANSFER],
    payload: { custodian: { from: LEA.id, to: MARC.id } },
    fromQueue: true,
    clientTime: '2030-01-15T08:30:00.000Z',
  }),
  entry(8, {
    kind: 'keychain.updated',
    keychainIds: [CAVE],
    payload: { custodian: { from: GONE, to: null }, reason: 'Inventaire' },
  }),
  entry(7, {
    kind: 'keychain.updated',
    keychainIds: [CAVE],
    payload: { name: { from: 'Cave', to: 'Cave 12' } },
  }),
  entry(6, { kind: 'keychain.deleted', keychainIds: [REMISE], payload: { name: 'Remise' } }),
  entry(5, { kind: 'transfer.cancelled', keychainIds: [CAVE], transferIds: [TRANSFER] }),
  entry(4, {
    kind: 'found_report.status_changed',
    tagIds: [TAG],
    payload: { reportId: 'r1', from: 'NEW', to: 'RESOLVED' },
  }),
  entry(3, {
    kind: 'member.changed',
    payload: { memberId: MARC.id, changed: ['role', 'status'], role: 'MANAGER', status: 'DISABLED' },
  }),
  entry(2, {
    kind: 'key.added',
    keychainIds: [CAVE],
    tagIds: [TAG],
    payload: { name: 'Porte', type: 'TAG' },
  }),
  entry(1, { kind: 'found_report.received', actor: null, tagIds: [TAG], payload: { reportId: 'r1' } }),
]

/** Léa hands Cave 12 to Marc from phone to phone; the server applies it, then refuses a second offer of it. */
const offerToMarc = signedCode(
  offerText({
    organizationId: '00000000-0000-4000-8000-0000000000f1',
    keychainId: CAVE,
    giverId: LEA.id,
    giverDeviceId: '00000000-0000-4000-8000-0000000000a1',
    receiverId: MARC.id,
    receiverDeviceId: '00000000-0000-4000-8000-0000000000b1',
    receiverNonce: 'ABCDEFGH',
    giverNonce: 'JKMNPQRS',
    base: 3,
    at: Date.parse('2030-01-15T08:00:00.000Z'),
  }),
  'signature',
)
const HANDOVERS: ActivityEntry[] = [
  entry(2, {
    kind: 'handover.refused',
    keychainIds: [CAVE],
    fromQueue: true,
    payload: {
      offer: offerToMarc,
      acceptance: 'TRH1|A|…',
      reason: 'conflict',
      giverId: LEA.id,
      receiverId: MARC.id,
    },
  }),
  entry(1, {
    kind: 'keychain.handed_over',
    keychainIds: [CAVE],
    fromQueue: true,
    payload: { offer: offerToMarc, acceptance: 'TRH1|A|…', custodian: { from: LEA.id, to: MARC.id } },
  }),
]

/** The log's head as the server signs it. */
const HEAD = {
  organizationId: '00000000-0000-4000-8000-0000000000f1',
  seq: 1234,
  hash: `1a56098ee64bf73f${'0'.repeat(48)}`,
  signedAt: '2030-01-15T10:00:00.000Z',
  keyId: '1b17604fb600ed18',
  signature: 'S'.repeat(86),
  token: 'trousseau-ledger-head/1 organization=… seq=1234 hash=1a56098e… key=1b17604fb600ed18 signature=SSS',
}

afterEach(() => {
  vi.unstubAllGlobals()
})

/** A server answering the list (with `refs`), the members, and the chain check with `check`. */
function server(
  data: ActivityEntry[] = STORY,
  refs: ActivityRefs = REFS,
  check = { entries: 2, valid: true, brokenAt: null as number | null },
) {
  const urls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(String(url))
      if (String(url).includes('/verification')) return Response.json(check)
      if (String(url).includes('/activity/head')) return Response.json(HEAD)
      if (String(url).includes('/api/keychains?'))
        return Response.json({
          data: [
            {
              id: CAVE,
              name: 'Cave 12',
              custodian: null,
              keyCount: 1,
              tagCodes: ['AGC-00042'],
              updatedAt: '2030-01-01T00:00:00.000Z',
            },
          ],
          nextCursor: null,
        })
      if (String(url).includes('/api/tags?'))
        return Response.json({
          data: [
            {
              id: TAG,
              publicId: 'P',
              code: 'AGC-00042',
              name: 'Porte',
              foregroundColor: '#000000',
              backgroundColor: '#ffffff',
              url: 'https://example.com/tags/P',
              key: { id: 'k1', name: 'Porte', keychainId: CAVE, keychainName: 'Cave 12' },
              createdAt: '2030-01-01T00:00:00.000Z',
            },
          ],
          nextCursor: null,
        })
      if (String(url).includes('/users'))
        return Response.json({
          data: [LEA, MARC].map((person) => ({
            ...person,
            role: 'MEMBER',
            status: 'ACTIVE',
            joinedAt: '2030-01-01T00:00:00.000Z',
          })),
        })
      return Response.json({ data, nextCursor: null, refs })
    }),
  )
  return {
    urls,
    listUrls: () => urls.filter((url) => url.includes('/api/activity?') || url.endsWith('/api/activity')),
  }
}

const screenOf = (
  filter: ActivityFilter,
  onFilterChange: (filter: ActivityFilter) => void = () => undefined,
) => (
  <AbilityProvider permissions={['read__member', 'read__activity']}>
    <ActivityScreen organizationId="o1" filter={filter} onFilterChange={onFilterChange} />
  </AbilityProvider>
)

async function lines(ui: ReactElement) {
  await renderWithRouter(ui)
  await screen.findByRole('list', { name: /Activity|Activité/ })
  const list = screen.getByRole('list', { name: /Activity|Activité/ })
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent?.replace(/\s+/g, ' ').trim() ?? '')
}

describe('the activity screen, in English', () => {
  beforeAll(async () => {
    await useLocale('en')
  })

  it('says what each entry did: keychain, custody from → to, a rename, the recorded name, the window, a report, a member', async () => {
    server()
    const [pickup, custody, rename, deleted, cancelled, report, member, key, found] = await lines(
      screenOf({}),
    )
    expect(pickup).toContain('Picked up Cave 12: custody Léa Dupont → Marc Petit')
    expect(pickup).toContain('Marc Petit · ')
    // Done offline at 8:30 UTC, synced at 10:00: both times show.
    expect(pickup).toMatch(/done offline at .*8:30/)
    expect(custody).toContain('Custody of Cave 12: someone no longer here → no one (reason: Inventaire)')
    expect(custody).not.toContain('Renamed')
    expect(rename).toContain('Renamed keychain Cave 12 from “Cave” to “Cave 12”')
    expect(rename).not.toContain('Custody')
    expect(rename).not.toContain('done offline')
    expect(deleted).toContain('Deleted keychain Remise')
    expect(deleted).not.toContain('(deleted)')
    expect(cancelled).toMatch(/Cancelled the transfer of Cave 12 to Marc Petit, 1\s*–\s*3 Feb 2030/)
    expect(report).toContain('Found-keys report on tag AGC-00042: new → resolved')
    expect(member).toContain('Changed member Marc Petit: role: Manager, status: Disabled')
    expect(key).toContain('Added key “Porte” with tag AGC-00042 to Cave 12')
    expect(found).toContain('Found keys reported through tag AGC-00042')
    expect(found).toContain('Someone who found the keys')
  })

  it('says who handed a keychain to whom from phone to phone, and a handover refused with its reason', async () => {
    server(HANDOVERS)
    const [refused, handed] = await lines(screenOf({}))
    expect(handed).toContain('Handed Cave 12 over from phone to phone: custody Léa Dupont → Marc Petit')
    expect(handed).toContain('Handed over from phone to phone')
    expect(refused).toContain(
      'Refused the handover of Cave 12 from Léa Dupont to Marc Petit (reason: it had changed hands in the meantime)',
    )
    expect(refused).toContain('Handover refused')
  })

  it('says who did it: the author, someone who left, or Trousseau itself for the tags of a paid order', async () => {
    server([
      entry(3, { kind: 'tags.created', actor: null, tagIds: [TAG], payload: { count: 1 } }),
      entry(2, { kind: 'keychain.deleted', actor: null, keychainIds: [REMISE], payload: { name: 'Remise' } }),
      entry(1, { kind: 'keychain.restored', keychainIds: [REMISE], payload: { name: 'Remise' } }),
    ])
    const [tags, deleted, restored] = await lines(screenOf({}))
    expect(tags).toContain('1 tag created')
    expect(tags).toContain('Trousseau, on its own (a paid order)')
    expect(deleted).toContain('Someone no longer here')
    expect(restored).toContain('Restored keychain Remise (deleted)')
    expect(restored).toContain('Léa Dupont · ')
  })

  it('names a keychain gone for good by the name its entry recorded (or as gone), and marks one deleted since', async () => {
    server(
      [
        entry(2, { kind: 'keychain.deleted', keychainIds: [REMISE], payload: { name: 'Grenier' } }),
        entry(1, {
          kind: 'transfer.returned',
          keychainIds: [REMISE],
          payload: { custodian: { from: MARC.id, to: null } },
        }),
        entry(0, {
          kind: 'transfer.picked_up',
          keychainIds: [CAVE],
          payload: { custodian: { from: null, to: MARC.id } },
        }),
      ],
      {
        keychains: { [CAVE]: { name: 'Cave 12', deleted: true } },
        tags: {},
        people: { [MARC.id]: MARC },
        transfers: {},
      },
    )
    const [deleted, returned, pickup] = await lines(screenOf({}))
    expect(pickup).toContain('Picked up Cave 12 (deleted): custody no one → Marc Petit')
    expect(deleted).toContain('Deleted keychain Grenier')
    expect(returned).toContain('Returned a keychain since deleted: custody Marc Petit → no one')
  })

  it('sends the person, keychain and tag filters with the others, and links the export to exactly that view', async () => {
    const { listUrls } = server()
    const filter: ActivityFilter = {
      kind: 'transfer.picked_up',
      person: MARC.id,
      keychain: CAVE,
      tag: TAG,
      from: '2030-01-01',
    }
    await renderWithRouter(screenOf(filter))
    await screen.findByRole('list', { name: 'Activity' })
    const sent = `kind=transfer.picked_up&person=${MARC.id}&keychain=${CAVE}&tag=${TAG}&from=2030-01-01`
    expect(listUrls()[0]).toContain(`/api/activity?${sent}`)
    const link = screen.getByRole('link', { name: 'Export as CSV' })
    expect(link.getAttribute('href')).toBe(activityExportHref(filter))
    expect(link.getAttribute('href')).toBe(`/api/activity/export?${sent}`)
    // The person picker shows who is chosen; the keychain and tag filters show as chips named from the page.
    expect((screen.getByRole('combobox', { name: 'Who' }) as HTMLSelectElement).value).toBe(MARC.id)
    const chips = within(screen.getByRole('list', { name: 'Filters' }))
    expect(chips.getByText('Keychain: Cave 12')).toBeTruthy()
    expect(chips.getByText('Tag: AGC-00042')).toBeTruthy()
    expect(chips.getByRole('link', { name: 'Open' }).getAttribute('href')).toBe(`/en/app/keychains/${CAVE}`)
  })

  it('narrows the view: a keychain or tag of an entry, a person picked or clicked; a chip removes its filter', async () => {
    server()
    const changes: ActivityFilter[] = []
    await renderWithRouter(
      screenOf({ kind: 'transfer.picked_up', keychain: CAVE }, (next) => changes.push(next)),
    )
    const list = within(await screen.findByRole('list', { name: 'Activity' }))
    const cave = list.getAllByRole('link', { name: 'Cave 12' })[0]!
    // A real link to the narrowed view (it can be opened in a new tab or shared); a click narrows in place.
    expect(cave.getAttribute('href')).toBe(`/en/app/activity?kind=transfer.picked_up&keychain=${CAVE}`)
    fireEvent.click(list.getAllByRole('link', { name: 'AGC-00042' })[0]!)
    expect(changes.at(-1)).toEqual({ kind: 'transfer.picked_up', keychain: CAVE, tag: TAG })
    fireEvent.click(list.getAllByRole('link', { name: 'Marc Petit' })[0]!)
    expect(changes.at(-1)).toEqual({ kind: 'transfer.picked_up', person: MARC.id, keychain: CAVE })
    fireEvent.change(await screen.findByRole('combobox', { name: 'Who' }), { target: { value: LEA.id } })
    expect(changes.at(-1)).toEqual({ kind: 'transfer.picked_up', person: LEA.id, keychain: CAVE })
    fireEvent.click(screen.getByRole('button', { name: 'Remove the keychain filter' }))
    expect(changes.at(-1)).toEqual({ kind: 'transfer.picked_up', keychain: undefined })
    expect(screen.queryByRole('button', { name: 'Remove the tag filter' })).toBeNull()
  })

  it('finds a keychain or tag by part of its name or code, and narrows the view to the one picked', async () => {
    const { urls } = server()
    const changes: ActivityFilter[] = []
    await renderWithRouter(screenOf({ kind: 'transfer.picked_up' }, (next) => changes.push(next)))
    await screen.findByRole('list', { name: 'Activity' })
    const field = screen.getByRole('textbox', { name: 'Keychain or tag' })
    fireEvent.change(field, { target: { value: 'c' } })
    // One letter asks nothing; two do, once the typing pauses.
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(urls.some((url) => url.includes('/api/keychains?'))).toBe(false)
    fireEvent.change(field, { target: { value: 'cav ' } })
    const found = within(await screen.findByRole('list', { name: 'Keychains and tags found' }))
    expect(urls).toContain('/api/keychains?q=cav&limit=5')
    expect(urls).toContain('/api/tags?q=cav&limit=5')
    expect(found.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Keychain: Cave 12',
      'Tag: AGC-00042 (Cave 12)',
    ])
    fireEvent.click(found.getByRole('button', { name: 'Tag: AGC-00042 (Cave 12)' }))
    expect(changes.at(-1)).toEqual({ kind: 'transfer.picked_up', tag: TAG })
    expect((field as HTMLInputElement).value).toBe('')
    expect(screen.queryByRole('list', { name: 'Keychains and tags found' })).toBeNull()
  })

  it('searches the words typed once submitted, keeping the other filters, and sends the search', async () => {
    const { listUrls } = server()
    const onFilterChange = vi.fn()
    const filter = { q: 'cave', kind: 'transfer.picked_up' as const }
    await renderWithRouter(screenOf(filter, onFilterChange))
    await screen.findByRole('list', { name: 'Activity' })
    expect(listUrls()[0]).toContain('/api/activity?q=cave&kind=transfer.picked_up')
    expect(screen.getByRole('link', { name: 'Export as CSV' }).getAttribute('href')).toBe(
      '/api/activity/export?q=cave&kind=transfer.picked_up',
    )
    const field = screen.getByRole('textbox', { name: 'Search a keychain, key, tag or person' })
    expect((field as HTMLInputElement).value).toBe('cave')
    fireEvent.change(field, { target: { value: '  Appartement 12 ' } })
    expect(onFilterChange).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    expect(onFilterChange).toHaveBeenCalledWith({ q: 'Appartement 12', kind: 'transfer.picked_up' })
    fireEvent.change(field, { target: { value: ' ' } })
    fireEvent.submit(screen.getByRole('button', { name: 'Search' }).closest('form')!)
    expect(onFilterChange).toHaveBeenLastCalledWith({ q: undefined, kind: 'transfer.picked_up' })
  })

  it('says whether the ledger is intact, and where it was tampered with', async () => {
    server(STORY, REFS, { entries: 12, valid: false, brokenAt: 7 })
    renderWithProviders(screenOf({}))
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Check the ledger' }))
    })
    expect(
      await screen.findByText('Tampered with: entry #7 or the one before it was changed or removed.'),
    ).toBeTruthy()
  })

  it('shows the signed head of the ledger: its entry, a fingerprint, when it was signed, and the line to keep', async () => {
    server()
    renderWithProviders(screenOf({}))
    const summary = await screen.findByText(/^Signed ledger head: entry 1,234, fingerprint/)
    expect(summary.textContent).toMatch(
      /^Signed ledger head: entry 1,234, fingerprint 1a56 098e e64b f73f, signed by the server on .*2030.*\.$/,
    )
    expect(screen.getByText(HEAD.token)).toBeTruthy()
  })

  it('offers to clear the filters when a filtered view is empty, and nothing to clear when none is set', async () => {
    server([], { keychains: {}, tags: {}, people: {}, transfers: {} })
    const changes: unknown[] = []
    const { unmount } = renderWithProviders(
      screenOf({ q: 'cave', from: '2030-01-01' }, (filter) => changes.push(filter)),
    )
    await screen.findByText('Nothing happened in this view.')
    fireEvent.click(screen.getByRole('button', { name: 'Clear the filters' }))
    expect(changes).toEqual([{}])
    unmount()
    renderWithProviders(screenOf({}))
    await screen.findByText('Nothing happened in this view.')
    expect(screen.queryByRole('button', { name: 'Clear the filters' })).toBeNull()
  })
})

describe('the activity screen, in French', () => {
  beforeAll(async () => {
    await useLocale('fr')
  })

  it('says what each entry did in French, a custody change apart from a rename, the offline time shown', async () => {
    server()
    const [pickup, custody, rename, deleted, cancelled, report, member, key, found] = await lines(
      screenOf({}),
    )
    expect(pickup).toContain('Cave 12 retiré : détention Léa Dupont → Marc Petit')
    expect(pickup).toMatch(/fait hors ligne à .*08:30/)
    expect(custody).toContain(
      'Détention de Cave 12 : quelqu’un qui n’est plus là → personne (motif : Inventaire)',
    )
    expect(rename).toContain('Trousseau Cave 12 renommé de « Cave » en « Cave 12 »')
    expect(deleted).toContain('Trousseau Remise supprimé')
    expect(cancelled).toMatch(/Transfert de Cave 12 à Marc Petit annulé, 1(er)?\s*–\s*3 févr\. 2030/)
    expect(report).toContain('Signalement de clés trouvées sur l’étiquette AGC-00042 : nouveau → résolu')
    expect(member).toContain('Membre Marc Petit modifié : rôle : Gestionnaire')
    expect(key).toContain('Clé « Porte » avec l’étiquette AGC-00042 ajoutée à Cave 12')
    expect(found).toContain('Clés trouvées signalées par l’étiquette AGC-00042')
  })

  it('says in French who handed a keychain to whom, and a refused handover', async () => {
    server(HANDOVERS)
    const [refused, handed] = await lines(screenOf({}))
    expect(handed).toContain('Cave 12 remis de téléphone à téléphone : détention Léa Dupont → Marc Petit')
    expect(refused).toContain(
      'Remise de Cave 12 de Léa Dupont à Marc Petit refusée (motif : il avait changé de mains entre-temps)',
    )
  })

  it('shows the signed head of the ledger in French', async () => {
    server()
    renderWithProviders(screenOf({}))
    const summary = await screen.findByText(/^Tête signée du registre : entrée/)
    expect(summary.textContent).toMatch(
      /^Tête signée du registre : entrée 1\s234, empreinte 1a56 098e e64b f73f, signée par le serveur le .*2030.*\.$/,
    )
  })

  it('names the filters in French, and the keychain link narrows the French view', async () => {
    const { listUrls } = server()
    await renderWithRouter(screenOf({ keychain: CAVE, tag: TAG }))
    const list = within(await screen.findByRole('list', { name: 'Activité' }))
    expect(listUrls()[0]).toContain(`/api/activity?keychain=${CAVE}&tag=${TAG}`)
    expect(screen.getByText('Trousseau : Cave 12')).toBeTruthy()
    expect(screen.getByText('Étiquette : AGC-00042')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Retirer le filtre du trousseau' })).toBeTruthy()
    expect(list.getAllByRole('link', { name: 'Cave 12' })[0]!.getAttribute('href')).toBe(
      `/app/activity?keychain=${CAVE}&tag=${TAG}`,
    )
    expect(screen.getByRole('combobox', { name: 'Qui' })).toBeTruthy()
  })
})
