// Names shared by the page (register-when-idle.ts), the build (vite.pwa.ts) and the worker's own script
// (public/sw-deferred.js repeats the cache name and the message of warm.ts: a test checks they agree).

/** The app's one service worker: the SPA and the prerendered pages register this script with this scope. */
export const SW_URL = '/sw.js'
export const SW_SCOPE = '/'

/** Where the worker keeps the files cached after the first paint (office routes and their chunks). */
export const DEFERRED_CACHE = 'trousseau-deferred'

/** Written by the build beside sw.js: `self.__TROUSSEAU_DEFERRED__ = [...]`, the deferred files' paths. */
export const DEFERRED_LIST_SCRIPT = 'sw-deferred-list.js'
