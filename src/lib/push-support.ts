/** What this browser can do: push, push once installed on the home screen (iOS), or none. */
export type PushSupport = 'supported' | 'install-first' | 'unsupported'

export function pushSupport(): PushSupport {
  const ios = /iPad|iPhone|iPod/.test(navigator.userAgent)
  const standalone = window.matchMedia?.('(display-mode: standalone)').matches === true
  if (ios && !standalone) return 'install-first'
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window))
    return 'unsupported'
  return 'supported'
}
