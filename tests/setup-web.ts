// Screens mirror what they fetch into IndexedDB (Dexie); jsdom has none.
import 'fake-indexeddb/auto'
import { i18n } from '@lingui/core'
import { cleanup } from '@testing-library/react'
import { afterEach, beforeAll } from 'vitest'
import { messages as app } from '../locales/en/messages.po'
import { messages as publicPages } from '../locales/en/public.po'

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: { ...publicPages, ...app } })
})

afterEach(() => {
  cleanup()
})
