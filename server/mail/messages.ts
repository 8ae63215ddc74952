import type { Locale } from '../../contract/locale.ts'

/** Placeholders in braces are replaced (HTML-escaped in the HTML part) by `fill`. */
const fr = {
  signInSubject: 'Votre connexion à Trousseau',
  signInPreheader: 'Votre lien et votre code de connexion, valables 10 minutes.',
  signInGreeting: 'Bonjour,',
  signInIntro: 'Pour vous connecter à Trousseau, ouvrez ce lien :',
  signInButton: 'Me connecter',
  signInCodeIntro: 'Ou saisissez ce code à 6 chiffres sur la page de connexion :',
  signInValidity: 'Le lien et le code sont valables 10 minutes et ne servent qu’une fois.',
  signInIgnore:
    'Si vous n’avez pas demandé cette connexion, ignorez ce message : personne ne pourra l’utiliser.',
  signature: 'L’équipe Trousseau',
}

export type MessageKey = keyof typeof fr

export const messages: Record<Locale, Record<MessageKey, string>> = {
  fr,
  en: {
    signInSubject: 'Your Trousseau sign-in',
    signInPreheader: 'Your sign-in link and code, valid 10 minutes.',
    signInGreeting: 'Hello,',
    signInIntro: 'To sign in to Trousseau, open this link:',
    signInButton: 'Sign in',
    signInCodeIntro: 'Or enter this 6-digit code on the sign-in page:',
    signInValidity: 'The link and the code are valid 10 minutes and work only once.',
    signInIgnore: 'If you did not ask to sign in, ignore this message: nobody can use it.',
    signature: 'The Trousseau team',
  },
}
