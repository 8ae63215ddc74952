import type { MessageDescriptor } from '../i18n/translator.ts'

/**
 * The sign-in mail's texts, as Lingui descriptors with explicit ids. English is the source; the French texts
 * live in `locales/fr/server.po` (run `npm run i18n:extract` after a change here).
 */
export const signInMessages = {
  subject: /*i18n*/ { id: 'mail.signIn.subject', message: 'Your Trousseau sign-in' },
  preheader: /*i18n*/ {
    id: 'mail.signIn.preheader',
    message: 'Your sign-in link and code, valid 10 minutes.',
  },
  greeting: /*i18n*/ { id: 'mail.signIn.greeting', message: 'Hello,' },
  intro: /*i18n*/ { id: 'mail.signIn.intro', message: 'To sign in to Trousseau, open this link:' },
  button: /*i18n*/ { id: 'mail.signIn.button', message: 'Sign in' },
  codeIntro: /*i18n*/ {
    id: 'mail.signIn.codeIntro',
    message: 'Or enter this 6-digit code on the sign-in page:',
  },
  validity: /*i18n*/ {
    id: 'mail.signIn.validity',
    message: 'The link and the code are valid 10 minutes and work only once.',
  },
  ignore: /*i18n*/ {
    id: 'mail.signIn.ignore',
    message: 'If you did not ask to sign in, ignore this message: nobody can use it.',
  },
  signature: /*i18n*/ { id: 'mail.signature', message: 'The Trousseau team' },
} satisfies Record<string, MessageDescriptor>

export type SignInMessageKey = keyof typeof signInMessages
