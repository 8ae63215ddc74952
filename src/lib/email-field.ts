import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import * as v from 'valibot'
import { EmailSchema } from '../../contract/auth.ts'

const invalidEmail = msg`Enter a valid e-mail address.`

/** An e-mail field's `onSubmit` validator: the contract's address rule, its refusal in the reader's language. */
export const emailProblem = (value: string, i18n: I18n): string | undefined =>
  v.safeParse(EmailSchema, value).success ? undefined : i18n._(invalidEmail)
