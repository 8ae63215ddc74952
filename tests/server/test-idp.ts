import { createHash, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'

/**
 * Who signs in at the next authorization request, as the provider's ID token will say: `sub`, and claims such as
 * `email`, `email_verified`, `given_name`, `family_name` — of any type, to prove what the client makes of them.
 */
export type IdpAccount = { sub: string } & Record<string, unknown>

/**
 * What the next ID token says wrongly, to prove the client refuses it: its issuer, audience (one or several),
 * authorized party, nonce or expiry, or there is none (`withoutIdToken`); and `userinfo`, what the userinfo
 * endpoint answers instead of the account.
 */
export type Tamper = {
  iss?: string
  aud?: string | string[]
  azp?: string
  nonce?: string
  expiresInS?: number
  userinfo?: Record<string, unknown>
  withoutIdToken?: boolean
}

/**
 * A small OpenID provider on the loopback, for the server tests' refusals: discovery, JWKS (RS256), userinfo, an
 * authorization endpoint that signs in `nextAccount` at once (no login page) and a token endpoint that checks the
 * client secret, the code, its redirect URI and the PKCE verifier (S256) before it signs the ID token — which
 * `tamper` can make wrong (issuer, audience, nonce, expiry). The browser tests use the real `oidc-provider`.
 */
export async function startTestIdp(client: { clientId: string; clientSecret: string }) {
  const { publicKey, privateKey } = await generateKeyPair('RS256')
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test', alg: 'RS256', use: 'sig' }
  const codes = new Map<
    string,
    { account: IdpAccount; nonce: string; challenge: string; redirectUri: string }
  >()
  /** What the userinfo endpoint answers for each access token given out. */
  const userinfo = new Map<string, Record<string, unknown>>()
  const state: { nextAccount: IdpAccount; tamper: Tamper } = {
    nextAccount: { sub: 'nobody' },
    tamper: {},
  }
  let issuer = ''
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', issuer)
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    // Its discovery document under any path too, where it names itself: another issuer than one with that path.
    if (url.pathname.endsWith('/.well-known/openid-configuration')) {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_post'],
      })
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] })
    if (url.pathname === '/userinfo') {
      const info = userinfo.get((request.headers.authorization ?? '').replace(/^Bearer /, ''))
      return info ? json(200, info) : json(401, { error: 'invalid_token' })
    }
    if (url.pathname === '/authorize') {
      const redirectUri = url.searchParams.get('redirect_uri') ?? ''
      if (url.searchParams.get('client_id') !== client.clientId) return json(400, { error: 'invalid_client' })
      const code = randomBytes(16).toString('base64url')
      codes.set(code, {
        account: state.nextAccount,
        nonce: url.searchParams.get('nonce') ?? '',
        challenge: url.searchParams.get('code_challenge') ?? '',
        redirectUri,
      })
      const back = new URL(redirectUri)
      back.searchParams.set('code', code)
      back.searchParams.set('state', url.searchParams.get('state') ?? '')
      return response.writeHead(302, { location: back.toString() }).end()
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
      if (form.get('client_id') !== client.clientId || form.get('client_secret') !== client.clientSecret)
        return json(401, { error: 'invalid_client' })
      const grant = codes.get(form.get('code') ?? '')
      codes.delete(form.get('code') ?? '')
      const verifier = form.get('code_verifier') ?? ''
      const challenge = createHash('sha256').update(verifier).digest('base64url')
      if (!grant || grant.challenge !== challenge || grant.redirectUri !== form.get('redirect_uri'))
        return json(400, { error: 'invalid_grant' })
      const { tamper } = state
      const now = Math.floor(Date.now() / 1000)
      const idToken = await new SignJWT({
        ...grant.account,
        nonce: tamper.nonce ?? grant.nonce,
        ...(tamper.azp === undefined ? {} : { azp: tamper.azp }),
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'test' })
        .setIssuer(tamper.iss ?? issuer)
        .setAudience(tamper.aud ?? client.clientId)
        .setIssuedAt(now)
        .setExpirationTime(now + (tamper.expiresInS ?? 300))
        .sign(privateKey)
      const accessToken = randomBytes(16).toString('base64url')
      userinfo.set(accessToken, tamper.userinfo ?? grant.account)
      return json(200, {
        access_token: accessToken,
        token_type: 'Bearer',
        ...(tamper.withoutIdToken ? {} : { id_token: idToken }),
      })
    }
    return json(404, { error: 'not_found' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    issuer,
    /** The account the next authorization signs in, and what its ID token says wrongly. */
    next(account: IdpAccount, tamper: Tamper = {}) {
      state.nextAccount = account
      state.tamper = tamper
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
