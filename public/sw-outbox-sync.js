// Imported by the generated service worker. When the browser fires Background Sync for the outbox (the network
// came back), every open window of the app is asked to drain its outbox; the app does the sending itself,
// with its session and its IndexedDB, so nothing here touches the data. With no window open nothing can be
// sent: the sync fails, so the browser tries it again later instead of counting it as done.
self.addEventListener('sync', (event) => {
  if (event.tag !== 'trousseau-outbox') return
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      if (windows.length === 0) throw new Error('No window of the app is open to drain the outbox')
      for (const client of windows) client.postMessage({ type: 'drain-outbox' })
    }),
  )
})
