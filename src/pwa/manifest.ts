import type { ManifestOptions } from 'vite-plugin-pwa'

const THEME_COLOR = '#3b3fb6'

export const pwaManifest: Partial<ManifestOptions> = {
  id: '/app',
  name: 'Trousseau',
  short_name: 'Trousseau',
  description: 'Trousseaux, clés, étiquettes QR et transferts pour les organisations.',
  lang: 'fr',
  dir: 'ltr',
  start_url: '/app',
  scope: '/',
  display: 'standalone',
  orientation: 'portrait',
  background_color: '#f8fafc',
  theme_color: THEME_COLOR,
  categories: ['business', 'productivity', 'utilities'],
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
  shortcuts: [{ name: 'Scanner une étiquette', short_name: 'Scanner', url: '/app/scan' }],
}

/** The English manifest: installed from an English page, the app opens in English and speaks it. */
export const pwaManifestEn: Partial<ManifestOptions> = {
  ...pwaManifest,
  description: 'Keychains, keys, QR tags and transfers for organizations.',
  lang: 'en',
  start_url: '/en/app',
  shortcuts: [{ name: 'Scan a tag', short_name: 'Scan', url: '/en/app/scan' }],
}
