/**
 * Whether an account is signed in on this device, as the app last knew it: written by the app whenever the
 * session is settled (src/app/session.ts), read by the static landing page's script, which has no other way to
 * know without a request. A hint only: the app still asks the server.
 */
const SIGNED_IN_KEY = 'trousseau-signed-in'

export function markSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(SIGNED_IN_KEY, '1')
    else localStorage.removeItem(SIGNED_IN_KEY)
  } catch {
    // No storage (private mode, or no browser): the landing page then offers its sign-in link as usual.
  }
}

export function isMarkedSignedIn(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_KEY) !== null
  } catch {
    return false
  }
}
