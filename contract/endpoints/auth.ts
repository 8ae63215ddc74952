import {
  EmailTokenAcceptedSchema,
  EmailTokenRequestSchema,
  ProfileSchema,
  SessionRequestSchema,
} from '../auth.ts'
import { endpoint } from './endpoint.ts'

/** Signing in (a mail with a link and a code, then the session) and out. */
export const authEndpoints = {
  requestSignIn: endpoint({
    method: 'post',
    path: '/email-tokens',
    body: EmailTokenRequestSchema,
    response: EmailTokenAcceptedSchema,
  }),
  signIn: endpoint({
    method: 'post',
    path: '/sessions',
    body: SessionRequestSchema,
    response: ProfileSchema,
  }),
  signOut: endpoint({ method: 'delete', path: '/session' }),
}
