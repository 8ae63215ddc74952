// Imported by the generated service worker. A push message (`PushMessage` of contract/notices.ts, JSON) always
// shows a notification (a push that shows none gets the subscription cancelled on iOS) and sets the app icon's
// badge where the browser has the Badging API. A tap opens the screen the message names: a window of the app
// already open goes there, else a new one; offline too, since the worker answers the app's pages. The tap's work
// is a named function of the worker (`trousseauOpenFromNotification`) because no browser lets a test click a
// notification.
;(() => {
  const FALLBACK = { title: 'Trousseau', body: '', url: '/app', tag: 'trousseau' }

  function messageOf(event) {
    try {
      const data = event.data ? event.data.json() : null
      if (data && typeof data.title === 'string' && typeof data.url === 'string') return data
    } catch {
      // Not JSON: the fallback below still shows a notification.
    }
    return FALLBACK
  }

  function setBadge(count) {
    const navigator = self.navigator
    if (typeof count !== 'number' || !navigator || !('setAppBadge' in navigator)) return Promise.resolve()
    const set = count > 0 ? navigator.setAppBadge(count) : navigator.clearAppBadge()
    return Promise.resolve(set).catch(() => undefined)
  }

  self.addEventListener('push', (event) => {
    const message = messageOf(event)
    event.waitUntil(
      Promise.all([
        self.registration.showNotification(message.title, {
          body: message.body,
          tag: message.tag,
          icon: '/icons/icon-192.png',
          badge: '/icons/icon-192.png',
          lang: message.url.startsWith('/en/') || message.url === '/en' ? 'en' : 'fr',
          data: { url: message.url },
        }),
        setBadge(message.badge),
      ]),
    )
  })

  /** The screen a notification names, on this origin only; a window of the app goes there, or a new one opens. */
  async function openFromNotification(notification) {
    const origin = new URL(self.location.href).origin
    const named = new URL(notification.data?.url || '/app', origin)
    const target = named.origin === origin ? named.href : `${origin}/app`
    notification.close()
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
    const open = windows.find((client) => new URL(client.url).origin === origin)
    if (open) {
      const navigated = await open.navigate(target).catch(() => null)
      const shown = navigated || open
      if (typeof shown.focus === 'function') await shown.focus().catch(() => undefined)
      return shown
    }
    return self.clients.openWindow(target)
  }
  self.trousseauOpenFromNotification = openFromNotification

  self.addEventListener('notificationclick', (event) => {
    event.waitUntil(openFromNotification(event.notification))
  })

  // The push service replaced the subscription: open windows register the new one (the app also does at start).
  self.addEventListener('pushsubscriptionchange', (event) => {
    event.waitUntil(
      self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
        for (const client of windows) client.postMessage({ type: 'push-subscription-changed' })
      }),
    )
  })
})()
