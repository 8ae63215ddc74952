import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  FOUND_REPORT_REPLY_MAX_LENGTH,
  type FoundReportDetail,
  type FoundReportStatus,
} from '../../../contract/found-reports.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { AbilityProvider } from '../../lib/ability.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { FoundReportDetailScreen } from './FoundReportDetailScreen.tsx'

const ID = '44444444-4444-4444-8444-444444444444'
const IRIS = {
  id: '11111111-1111-4111-8111-111111111111',
  email: 'iris@example.com',
  firstName: 'Iris',
  lastName: 'Martin',
}
// Noon UTC: the same calendar day in every time zone the tests may run in.
const AT = '2030-01-10T12:00:00.000Z'
const LATER = '2030-01-11T12:00:00.000Z'

const REPORT: FoundReportDetail = {
  id: ID,
  status: 'NEW',
  message: 'Trouvé devant la boulangerie.\nJe suis joignable le soir.',
  tag: { id: 'tag-1', code: 'MRS-00042', name: 'Loge' },
  keychain: { id: '33333333-3333-4333-8333-333333333333', name: 'Loge du 8' },
  locale: 'fr',
  canReply: true,
  replies: 0,
  createdAt: AT,
  updatedAt: AT,
  contact: '…@… ou 06 12 34 56 78',
  statusChangedAt: null,
  statusChangedBy: null,
  replyList: [],
  repliesLeft: 5,
}

type Sent = { method: string; path: string; body: unknown }

afterEach(() => {
  vi.unstubAllGlobals()
})

/**
 * A server holding one report: a status change and a reply change it as the real one does (a reply to a NEW
 * report makes it CONTACTED); `refuse` answers a write with that status and code instead.
 */
function server(start: Partial<FoundReportDetail> = {}, refuse?: { status: number; code: string }) {
  let report: FoundReportDetail = { ...REPORT, ...start }
  const sent: Sent[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(String(input), 'http://app.test').pathname
      const method = init?.method ?? 'GET'
      const body = init?.body ? JSON.parse(String(init.body)) : undefined
      sent.push({ method, path, body })
      if (method !== 'GET' && refuse)
        return Response.json({ error: { code: refuse.code, message: 'Refused.' } }, { status: refuse.status })
      if (method === 'PATCH' && path === `/api/found-reports/${ID}`) {
        const status = (body as { status: FoundReportStatus }).status
        report = { ...report, status, statusChangedAt: LATER, statusChangedBy: IRIS, updatedAt: LATER }
      }
      if (method === 'POST' && path === `/api/found-reports/${ID}/replies`) {
        const message = (body as { message: string }).message.trim()
        report = {
          ...report,
          status: report.status === 'NEW' ? 'CONTACTED' : report.status,
          replies: report.replies + 1,
          repliesLeft: report.repliesLeft - 1,
          replyList: [
            ...report.replyList,
            { id: `reply-${report.replies}`, message, author: IRIS, createdAt: LATER },
          ],
        }
      }
      return Response.json(report)
    }),
  )
  return { sent, writes: () => sent.filter((each) => each.method !== 'GET') }
}

function open(permissions: string[] = ['read__found_report', 'update__found_report']) {
  return renderWithRouter(
    <AbilityProvider permissions={permissions}>
      <FoundReportDetailScreen organizationId="o1" id={ID} />
    </AbilityProvider>,
  )
}

const badge = () => within(screen.getByRole('banner')).getByText(/./, { selector: 'span' }).textContent

async function changeStatus(label: string, value: FoundReportStatus) {
  const form = screen.getByRole('combobox', { name: label })
  await act(async () => {
    fireEvent.change(form, { target: { value } })
  })
}

describe('a found-key report', () => {
  it('shows what the finder wrote, how to reach them, the keychain and the status, in English', async () => {
    await useLocale('en')
    server()
    await open()
    expect(await screen.findByRole('heading', { level: 1, name: 'Found keys: tag MRS-00042' })).toBeTruthy()
    expect(badge()).toBe('New')
    expect(
      screen.getByRole('heading', { name: /^The finder wrote, on 10 Jan 2030, \d\d:\d\d:$/ }),
    ).toBeTruthy()
    expect(screen.getByText(/Trouvé devant la boulangerie\./).textContent).toBe(REPORT.message)
    expect(screen.getByText('…@… ou 06 12 34 56 78')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Loge du 8' }).getAttribute('href')).toBe(
      `/en/app/keychains/${REPORT.keychain!.id}`,
    )
    expect(screen.getByText(/shown as …@… stays private/)).toBeTruthy()
    // The same status as now cannot be sent again.
    expect(screen.getByRole('button', { name: 'Change the status' }).hasAttribute('disabled')).toBe(true)
    // Five replies are allowed; the description says so, and in which language the finder gets it.
    expect(screen.getByText(/in French\) from its own address.*5 replies left\./)).toBeTruthy()
  })

  it('moves the status from new to contacted to resolved, sending each and showing who changed it', async () => {
    await useLocale('en')
    const { writes } = server()
    await open()
    await screen.findByRole('combobox', { name: 'Status' })
    await changeStatus('Status', 'CONTACTED')
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Change the status' }))
    })
    expect(writes()).toEqual([
      { method: 'PATCH', path: `/api/found-reports/${ID}`, body: { status: 'CONTACTED' } },
    ])
    await vi.waitFor(() => expect(badge()).toBe('Contacted'))
    expect(screen.getByText(/^Last changed by Iris Martin on 11 Jan 2030, \d\d:\d\d\.$/)).toBeTruthy()
    expect(toasts.getSnapshot().at(-1)).toMatchObject({
      severity: 'success',
      summary: 'The status has been changed.',
    })
    expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe('CONTACTED')

    await changeStatus('Status', 'RESOLVED')
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Change the status' }))
    })
    expect(writes().at(-1)).toEqual({
      method: 'PATCH',
      path: `/api/found-reports/${ID}`,
      body: { status: 'RESOLVED' },
    })
    await vi.waitFor(() => expect(badge()).toBe('Resolved'))
  })

  it('changes the status in French and says so', async () => {
    await useLocale('fr')
    const { writes } = server({ status: 'CONTACTED' })
    await open()
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Clés trouvées : étiquette MRS-00042' }),
    ).toBeTruthy()
    expect(badge()).toBe('Contacté')
    expect(
      screen.getByRole('heading', { name: /^La personne a écrit, le 10 janv\. 2030, \d\d:\d\d :$/ }),
    ).toBeTruthy()
    await changeStatus('Statut', 'RESOLVED')
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Changer le statut' }))
    })
    expect(writes()).toEqual([
      { method: 'PATCH', path: `/api/found-reports/${ID}`, body: { status: 'RESOLVED' } },
    ])
    await vi.waitFor(() => expect(badge()).toBe('Résolu'))
    expect(
      screen.getByText(/^Changé en dernier par Iris Martin le 11 janv\. 2030, \d\d:\d\d\.$/),
    ).toBeTruthy()
    expect(toasts.getSnapshot().at(-1)).toMatchObject({
      severity: 'success',
      summary: 'Le statut a été changé.',
    })
  })

  it('says readably why a status change was refused, and keeps the status shown', async () => {
    await useLocale('fr')
    server({}, { status: 403, code: 'forbidden' })
    await open()
    await screen.findByRole('combobox', { name: 'Statut' })
    await changeStatus('Statut', 'RESOLVED')
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Changer le statut' }))
    })
    await vi.waitFor(() =>
      expect(toasts.getSnapshot().at(-1)).toMatchObject({
        severity: 'error',
        summary: 'Le statut n’a pas pu être changé.',
        detail: 'Votre rôle ne le permet pas.',
      }),
    )
    expect(badge()).toBe('Nouveau')
  })

  it('sends a reply, shows it among the replies, and the new report becomes contacted', async () => {
    await useLocale('en')
    const { writes } = server()
    await open()
    const field = await screen.findByRole('textbox', { name: 'Reply to the finder' })
    expect(field.getAttribute('maxlength')).toBe(String(FOUND_REPORT_REPLY_MAX_LENGTH))
    // A reply holds a few lines: the field is a text area, its help tied to it.
    expect(field.tagName).toBe('TEXTAREA')
    expect(field.getAttribute('aria-describedby')).toBeTruthy()
    await act(async () => {
      fireEvent.change(field, { target: { value: 'Merci ! Je passe ce soir vers 19 h.' } })
    })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send the reply' }))
    })
    expect(writes()).toEqual([
      {
        method: 'POST',
        path: `/api/found-reports/${ID}/replies`,
        body: { message: 'Merci ! Je passe ce soir vers 19 h.' },
      },
    ])
    const replies = await screen.findByRole('list', { name: 'Replies' })
    expect(within(replies).getByRole('listitem').textContent).toMatch(
      /^Iris Martin, 11 Jan 2030, \d\d:\d\dMerci ! Je passe ce soir vers 19 h\.$/,
    )
    expect((screen.getByRole('textbox', { name: 'Reply to the finder' }) as HTMLTextAreaElement).value).toBe(
      '',
    )
    expect(badge()).toBe('Contacted')
    expect(screen.getByText(/4 replies left\./)).toBeTruthy()
    expect(toasts.getSnapshot().at(-1)).toMatchObject({
      severity: 'success',
      summary: 'Your reply has been sent to the finder.',
    })
  })

  it('refuses an empty reply and one over the limit without sending them, in both languages', async () => {
    await useLocale('en')
    const { writes } = server()
    const { unmount } = await open()
    const field = await screen.findByRole('textbox', { name: 'Reply to the finder' })
    const send = screen.getByRole('button', { name: 'Send the reply' })
    for (const [typed, problem] of [
      ['', 'Write your reply.'],
      ['   \n  ', 'Write your reply.'],
      ['x'.repeat(FOUND_REPORT_REPLY_MAX_LENGTH + 1), `At most ${FOUND_REPORT_REPLY_MAX_LENGTH} characters.`],
    ] as const) {
      await act(async () => {
        fireEvent.change(field, { target: { value: typed } })
      })
      await act(async () => {
        fireEvent.click(send)
      })
      expect(field.getAttribute('aria-invalid'), typed).toBe('true')
      const help = document.getElementById(field.getAttribute('aria-describedby')!.split(' ').at(-1)!)
      expect(help?.textContent).toBe(problem)
    }
    // Exactly the limit, spaces around it not counted (the server trims them), is sent.
    await act(async () => {
      fireEvent.change(field, { target: { value: ` ${'x'.repeat(FOUND_REPORT_REPLY_MAX_LENGTH)} ` } })
    })
    expect(writes()).toEqual([])
    await act(async () => {
      fireEvent.click(send)
    })
    expect(writes()).toHaveLength(1)
    unmount()

    await useLocale('fr')
    server()
    await open()
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Envoyer la réponse' }))
    })
    expect(screen.getByText('Écrivez votre réponse.')).toBeTruthy()
    await act(async () => {
      fireEvent.change(screen.getByRole('textbox', { name: 'Répondre à la personne' }), {
        target: { value: 'y'.repeat(FOUND_REPORT_REPLY_MAX_LENGTH + 1) },
      })
    })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Envoyer la réponse' }))
    })
    expect(screen.getByText(`${FOUND_REPORT_REPLY_MAX_LENGTH} caractères au maximum.`)).toBeTruthy()
  })

  it.each([
    [429, 'rate_limited', 'Trop de réponses cette heure-ci. Veuillez réessayer plus tard.'],
    [409, 'replies_exhausted', 'Ce signalement a reçu toutes ses réponses.'],
    [409, 'finder_unreachable', /^La personne n’a pas laissé d’adresse e-mail/],
    [403, 'forbidden', 'Votre rôle ne le permet pas.'],
    [400, 'validation_failed', /^Une partie de la saisie n'a pas été acceptée/],
  ])('says readably why a reply was refused (%i %s), and keeps the text', async (status, code, detail) => {
    await useLocale('fr')
    server({}, { status, code })
    await open()
    const field = await screen.findByRole('textbox', { name: 'Répondre à la personne' })
    await act(async () => {
      fireEvent.change(field, { target: { value: 'Merci !' } })
    })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Envoyer la réponse' }))
    })
    await vi.waitFor(() =>
      expect(toasts.getSnapshot().at(-1)).toMatchObject({
        severity: 'error',
        summary: 'Votre réponse n’a pas pu être envoyée.',
        detail: expect.stringMatching(detail),
      }),
    )
    expect((field as HTMLTextAreaElement).value).toBe('Merci !')
  })

  it('says the server could not be reached when a reply is sent offline', async () => {
    await useLocale('en')
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: string, init?: RequestInit) => {
        if (init?.method === 'POST') throw new TypeError('Failed to fetch')
        return Response.json(REPORT)
      }),
    )
    await open()
    const field = await screen.findByRole('textbox', { name: 'Reply to the finder' })
    await act(async () => {
      fireEvent.change(field, { target: { value: 'Thanks!' } })
    })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send the reply' }))
    })
    await vi.waitFor(() =>
      expect(toasts.getSnapshot().at(-1)).toMatchObject({
        severity: 'error',
        summary: 'Your reply could not be sent.',
        detail: 'The server could not be reached: check the connection and try again.',
      }),
    )
  })

  it('offers no reply to a finder who left no address, nor once the replies are used up', async () => {
    await useLocale('en')
    server({ canReply: false, contact: '06 12 34 56 78' })
    const { unmount } = await open()
    expect(await screen.findByText(/The finder left no e-mail address/)).toBeTruthy()
    expect(screen.queryByRole('textbox')).toBeNull()
    expect(screen.queryByText(/shown as …@… stays private/)).toBeNull()
    unmount()
    server({ repliesLeft: 0 })
    await open()
    expect(await screen.findByText(/This report has had all its replies\./)).toBeTruthy()
    expect(screen.queryByRole('textbox')).toBeNull()
  })

  it('lets a reader without the right to handle reports read it, but not change or reply', async () => {
    await useLocale('en')
    server({
      replyList: [{ id: 'old', message: 'Earlier reply.', author: null, createdAt: AT }],
      keychain: null,
    })
    await open(['read__found_report'])
    await screen.findByRole('heading', { level: 1 })
    expect(screen.queryByRole('combobox', { name: 'Status' })).toBeNull()
    expect(screen.queryByRole('textbox')).toBeNull()
    expect(screen.getByText('The tag is on no keychain.')).toBeTruthy()
    // A reply whose author has left shows its date alone.
    expect(within(screen.getByRole('list', { name: 'Replies' })).getByRole('listitem').textContent).toMatch(
      /^10 Jan 2030, \d\d:\d\dEarlier reply\.$/,
    )
  })

  it('says when the report does not exist or could not be loaded, in French', async () => {
    await useLocale('fr')
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ error: { code: 'not_found', message: 'No.' } }, { status: 404 })),
    )
    const { unmount } = await open()
    expect(await screen.findByRole('heading', { name: 'Page introuvable' })).toBeTruthy()
    unmount()
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ error: { code: 'forbidden', message: 'No.' } }, { status: 403 })),
    )
    await open()
    expect((await screen.findByRole('alert')).textContent).toContain('Le signalement n’a pas pu être chargé.')
  })
})
