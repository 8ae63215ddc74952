import * as v from 'valibot'
import { LOCALES } from './locale.ts'

// Apart from locale.ts, which the prerendered pages import: they load no schema library.
export const LocaleSchema = v.picklist(LOCALES)
