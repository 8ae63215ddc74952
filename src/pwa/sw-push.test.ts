// The worker's push and notification handlers (public/sw-push.js, a plain script the generated worker imports),
// run against a fake worker global.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it, vi } from 'vitest'

const source = readFileSync(resolve(__dirname, '../../public/sw-push.js'), 'utf8')
const ORIGIN = 'https://trousseau.test'

type Notification = {
  title: string
  options: { body: string; tag: string; lang: string; data: { url: string } }
}
type Client = { url: string; navigate: ReturnType<typeof vi.fn>; focus: ReturnType<typeof vi.fn> }

function fakeWorker({ windows = [] as Client[], badging = true } = {}) {
  const shown: Notification[] = []
  const listeners = new Map<string, (event: Record<string, unknown>) => void>()
  const opened: string[] = []
  const worker: Record<string, unknown> = {
    location: { href: `${ORIGIN}/sw.js` },
    navigator: badging
      ? { setAppBadge: vi.fn(async () => undefined), clearAppBadge: vi.fn(async () => undefined) }
      : {},
    registration: {
      showNotification: vi.fn(async (title: string, options: Notification['options']) => {
        shown.push({ title, options })
      }),
    },
    clients: {
      matchAll: vi.fn(async () => windows),
      openWindow: vi.fn(async (url: string) => {
        opened.push(url)
        return { url }
      }),
    },
    addEventListener: (type: string, listener: (event: Record<string, unknown>) => void) =>
      listeners.set(type, listener),
  }
  new Function('self', source)(worker)
  const dispatch = (type: string, event: Record<string, unknown>) => {
    let done: Promise<unknown> = Promise.resolve()
    listeners.get(type)?.({ ...event, waitUntil: (promise: Promise<unknown>) => (done = promise) })
    return done
  }
  const push = (data: unknown) =>
    dispatch('push', {
      data:
        data === null
          ? null
          : {
              json: () => (typeof data === 'string' ? JSON.parse(data) : data),
            },
    })
  return { worker, shown, opened, push, dispatch }
}

const windowAt = (url: string): Client => ({
  url,
  navigate: vi.fn(async (to: string) => ({ url: to, focus: vi.fn(async () => undefined) })),
  focus: vi.fn(async () => undefined),
})

describe('public/sw-push.js', () => {
  it('shows every push message as a notification in its language, and sets the icon badge', async () => {
    const { worker, shown, push } = fakeWorker()
    await push({ title: 'Overdue', body: 'Bring it back', url: '/en/app/transfers', tag: 't1', badge: 3 })
    expect(shown).toEqual([
      {
        title: 'Overdue',
        options: expect.objectContaining({
          body: 'Bring it back',
          tag: 't1',
          lang: 'en',
          data: { url: '/en/app/transfers' },
        }),
      },
    ])
    const navigator = worker.navigator as Record<string, ReturnType<typeof vi.fn>>
    expect(navigator.setAppBadge).toHaveBeenCalledWith(3)
    await push({ title: 'Rendu', body: '', url: '/app', tag: 't2', badge: 0 })
    expect(shown[1]!.options.lang).toBe('fr')
    expect(navigator.clearAppBadge).toHaveBeenCalledTimes(1)
  })

  it('still shows a notification for a message it cannot read, and without the Badging API', async () => {
    const { shown, push } = fakeWorker({ badging: false })
    await push('not json')
    await push(null)
    await push({ body: 'no title' })
    expect(shown.map((each) => each.title)).toEqual(['Trousseau', 'Trousseau', 'Trousseau'])
    expect(shown[0]!.options.data).toEqual({ url: '/app' })
  })

  it('opens the named screen in a window of the app already open, else in a new one', async () => {
    const open = windowAt(`${ORIGIN}/app/scan`)
    const other = windowAt('https://elsewhere.test/')
    const withWindow = fakeWorker({ windows: [other, open] })
    const close = vi.fn()
    await withWindow.dispatch('notificationclick', {
      notification: { data: { url: '/app/transfers/requests/7' }, close },
    })
    expect(close).toHaveBeenCalled()
    expect(open.navigate).toHaveBeenCalledWith(`${ORIGIN}/app/transfers/requests/7`)
    expect(other.navigate).not.toHaveBeenCalled()

    const without = fakeWorker()
    await without.dispatch('notificationclick', { notification: { data: { url: '/en/app' }, close } })
    expect(without.opened).toEqual([`${ORIGIN}/en/app`])
  })

  it('never opens another origin a message might name', async () => {
    const { dispatch, opened } = fakeWorker()
    await dispatch('notificationclick', {
      notification: { data: { url: '//evil.test/app' }, close: vi.fn() },
    })
    expect(opened).toEqual([`${ORIGIN}/app`])
  })

  it('asks open windows to register a replaced subscription', async () => {
    const postMessage = vi.fn()
    const { dispatch } = fakeWorker({ windows: [{ ...windowAt(`${ORIGIN}/app`), postMessage } as Client] })
    await dispatch('pushsubscriptionchange', {})
    expect(postMessage).toHaveBeenCalledWith({ type: 'push-subscription-changed' })
  })
})
