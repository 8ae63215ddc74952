import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadConfig } from './config.ts'

// @database-agnostic: configuration parsing; it imports the browser tests' harness (which can reach a database)
// only for its production environment.

const failure = (env: Record<string, string>) => {
  try {
    loadConfig(env)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected loadConfig to fail')
}

describe('loadConfig', () => {
  it('has sensible defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      nodeEnv: 'development',
      dataDir: './data',
      databaseUrl: null,
      publicUrl: 'http://localhost:3000',
      sessionSecret: null,
      smtpUrl: null,
      mailFrom: 'Trousseau <no-reply@localhost>',
      jobsPollMs: 5000,
      logLevel: 'info',
      corsOrigins: [],
      operatorEmails: [],
      trustProxy: false,
      staticDir: './dist',
      appVersion: null,
      paymentProvider: 'local',
      stripeSecretKey: null,
      stripeWebhookSecret: null,
      stripeApiBase: null,
      shutdownGraceMs: 10_000,
      metricsToken: null,
      vapidKeys: null,
      vapidSubject: 'mailto:no-reply@localhost',
      webhookAllowPrivateTargets: false,
      webhookTimeoutMs: 5000,
      oidcDomainProof: 'dns',
      oidcAllowHttpIssuers: false,
    })
  })

  it('refuses private webhook targets unless told, whatever NODE_ENV, and bounds the webhook timeout', () => {
    const production = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://keys.example.com',
      ALLOW_SANDBOX_PAYMENTS: 'true',
    }
    for (const env of [{}, { NODE_ENV: 'test' }, { NODE_ENV: 'development' }, production]) {
      expect(loadConfig(env).webhookAllowPrivateTargets, JSON.stringify(env)).toBe(false)
      expect(loadConfig({ ...env, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhookAllowPrivateTargets).toBe(
        true,
      )
      expect(loadConfig({ ...env, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' }).webhookAllowPrivateTargets).toBe(true)
      expect(loadConfig({ ...env, WEBHOOK_ALLOW_PRIVATE_TARGETS: '0' }).webhookAllowPrivateTargets).toBe(
        false,
      )
    }
    expect(loadConfig({ WEBHOOK_TIMEOUT_MS: '2500' }).webhookTimeoutMs).toBe(2500)
    const bounds =
      'Invalid configuration: WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds from 100 to 60000'
    expect(failure({ WEBHOOK_TIMEOUT_MS: '99' })).toBe(bounds)
    expect(failure({ WEBHOOK_TIMEOUT_MS: '60001' })).toBe(bounds)
    expect(failure({ WEBHOOK_TIMEOUT_MS: '1s' })).toBe(bounds)
    expect(failure({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' })).toBe(
      'Invalid configuration: WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false',
    )
  })

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      DATA_DIR: '/var/lib/trousseau',
      DATABASE_URL: 'postgres://app@db:5432/trousseau',
      PUBLIC_URL: 'https://keys.example.com/',
      SESSION_SECRET: 's'.repeat(32),
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      MAIL_FROM: 'Keys <keys@example.com>',
      LOG_LEVEL: 'warn',
      CORS_ORIGINS: 'https://a.example.com, https://b.example.com',
      OPERATOR_EMAILS: 'Ops@Example.com,boss@example.com',
      TRUST_PROXY: 'true',
      STATIC_DIR: '/srv/spa',
      APP_VERSION: '1.2.3',
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_WEBHOOK_SECRET: 'whsec_456',
      STRIPE_API_BASE: 'http://127.0.0.1:12111',
      SHUTDOWN_GRACE_MS: '2500',
      METRICS_TOKEN: 'm'.repeat(32),
      VAPID_PUBLIC_KEY: 'B'.repeat(87),
      VAPID_PRIVATE_KEY: 'k'.repeat(43),
      VAPID_SUBJECT: 'https://keys.example.com/contact',
      OIDC_DOMAIN_PROOF: 'confirm',
      OIDC_ALLOW_HTTP_ISSUERS: 'true',
    })
    expect(config).toMatchObject({
      oidcDomainProof: 'confirm',
      oidcAllowHttpIssuers: true,
      vapidKeys: { publicKey: 'B'.repeat(87), privateKey: 'k'.repeat(43) },
      vapidSubject: 'https://keys.example.com/contact',
      shutdownGraceMs: 2500,
      metricsToken: 'm'.repeat(32),
      paymentProvider: 'stripe',
      stripeSecretKey: 'sk_test_123',
      stripeWebhookSecret: 'whsec_456',
      stripeApiBase: { protocol: 'http', host: '127.0.0.1', port: 12111 },
      port: 8080,
      publicUrl: 'https://keys.example.com',
      corsOrigins: ['https://a.example.com', 'https://b.example.com'],
      operatorEmails: ['ops@example.com', 'boss@example.com'],
      trustProxy: true,
      appVersion: '1.2.3',
    })
  })

  it('makes the VAPID contact the address mail comes from, unless told', () => {
    expect(loadConfig({ MAIL_FROM: 'Keys <keys@example.com>' }).vapidSubject).toBe('mailto:keys@example.com')
    expect(loadConfig({ MAIL_FROM: 'keys@example.com' }).vapidSubject).toBe('mailto:keys@example.com')
    expect(loadConfig({ VAPID_SUBJECT: 'mailto:ops@example.com' }).vapidSubject).toBe(
      'mailto:ops@example.com',
    )
  })

  it('defaults PUBLIC_URL to the port', () => {
    expect(loadConfig({ PORT: '4000' }).publicUrl).toBe('http://localhost:4000')
  })

  it('accepts plain http in production only on a loopback host', () => {
    for (const url of [
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://[::1]:3000',
      'https://k.example',
    ]) {
      expect(
        loadConfig({ NODE_ENV: 'production', PUBLIC_URL: url, ALLOW_SANDBOX_PAYMENTS: 'true' }).publicUrl,
      ).toBe(url)
    }
    expect(loadConfig({ NODE_ENV: 'production' }).publicUrl).toBe('http://localhost:3000')
    expect(loadConfig({ NODE_ENV: 'development', PUBLIC_URL: 'http://lan.example' }).publicUrl).toBe(
      'http://lan.example',
    )
  })

  it('refuses the sandbox payments in production unless told to, or on this machine only', () => {
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://keys.example.com' }
    const refusal =
      'Invalid configuration: PAYMENT_PROVIDER=local (the sandbox: anyone can pay without paying) is refused in production; set PAYMENT_PROVIDER=stripe, or ALLOW_SANDBOX_PAYMENTS=true for a demo'
    // The sandbox is the default provider: a deployment that names none is refused, in one line.
    expect(failure(production)).toBe(refusal)
    expect(failure({ ...production, PAYMENT_PROVIDER: 'local', ALLOW_SANDBOX_PAYMENTS: 'false' })).toBe(
      refusal,
    )
    // An API on this machine serving a SPA elsewhere is reachable from elsewhere too.
    expect(failure({ NODE_ENV: 'production', CORS_ORIGINS: 'https://app.example.com' })).toBe(refusal)
    // Said on purpose (a demo), or another provider.
    for (const allowed of ['true', '1']) {
      expect(loadConfig({ ...production, ALLOW_SANDBOX_PAYMENTS: allowed }).paymentProvider).toBe('local')
    }
    const stripe = { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }
    expect(loadConfig({ ...production, ...stripe }).paymentProvider).toBe('stripe')
    // `npm start` on one's own machine, the browser tests and the benchmarks: loopback only.
    expect(loadConfig({ NODE_ENV: 'production' }).paymentProvider).toBe('local')
    expect(
      loadConfig({
        NODE_ENV: 'production',
        PUBLIC_URL: 'http://localhost:4000',
        CORS_ORIGINS: 'http://127.0.0.1:5173',
      }).paymentProvider,
    ).toBe('local')
    // Development and tests keep the sandbox whatever the address.
    expect(loadConfig({ PUBLIC_URL: 'https://keys.example.com' }).paymentProvider).toBe('local')
    expect(loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://keys.example.com' }).paymentProvider).toBe(
      'local',
    )
    expect(failure({ ALLOW_SANDBOX_PAYMENTS: 'yes' })).toBe(
      'Invalid configuration: ALLOW_SANDBOX_PAYMENTS must be true or false',
    )
  })

  it('accepts the browser tests’ production environment (tests/e2e/harness.ts) with the sandbox', async () => {
    const { productionEnv } = await import('../tests/e2e/harness.ts')
    const env = productionEnv({
      port: 4100,
      dataDir: '/tmp/x',
      smtpUrl: 'smtp://127.0.0.1:2525',
      staticDir: 'dist',
    })
    expect(loadConfig(env)).toMatchObject({ nodeEnv: 'production', paymentProvider: 'local' })
  })

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 3000, databaseUrl: null })
  })

  it.each([
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be an integer between 1 and 65535'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be an integer between 1 and 65535'],
    [{ PORT: '0' }, 'Invalid configuration: PORT must be an integer between 1 and 65535'],
    [
      { SHUTDOWN_GRACE_MS: '10s' },
      'Invalid configuration: SHUTDOWN_GRACE_MS must be a whole number of milliseconds',
    ],
    [
      { METRICS_TOKEN: 'short' },
      'Invalid configuration: METRICS_TOKEN must be at least 32 characters (letters, digits, ._~+/=-)',
    ],
    [
      { VAPID_SUBJECT: 'ops@example.com' },
      'Invalid configuration: VAPID_SUBJECT must be a mailto: address (mailto:ops@example.com) or an https:// URL',
    ],
    [
      { VAPID_SUBJECT: 'http://example.com' },
      'Invalid configuration: VAPID_SUBJECT must be a mailto: address (mailto:ops@example.com) or an https:// URL',
    ],
    [
      { VAPID_PUBLIC_KEY: 'x'.repeat(86) },
      'Invalid configuration: VAPID_PUBLIC_KEY must be a raw P-256 public key, base64url (87 characters)',
    ],
    [
      { VAPID_PUBLIC_KEY: 'B'.repeat(87) },
      'Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together',
    ],
    [
      { VAPID_PRIVATE_KEY: 'k'.repeat(43) },
      'Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together',
    ],
    [
      { JOBS_POLL_MS: 'soon' },
      'Invalid configuration: JOBS_POLL_MS must be a whole number of milliseconds (0 runs no jobs here)',
    ],
    [{ NODE_ENV: 'staging' }, 'Invalid configuration: NODE_ENV must be one of development, production, test'],
    [{ SESSION_SECRET: 'short' }, 'Invalid configuration: SESSION_SECRET must be at least 32 characters'],
    [{ CORS_ORIGINS: '*' }, 'Invalid configuration: CORS_ORIGINS must be a comma-separated list of origins'],
    [{ PUBLIC_URL: 'keys.example.com' }, 'Invalid configuration: PUBLIC_URL must be an absolute http(s) URL'],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid configuration: DATABASE_URL must start with postgres://'],
    [{ SMTP_URL: 'http://mail' }, 'Invalid configuration: SMTP_URL must start with smtp:// or smtps://'],
    [{ TRUST_PROXY: 'yes' }, 'Invalid configuration: TRUST_PROXY must be true or false'],
    [{ OPERATOR_EMAILS: 'ops' }, 'Invalid configuration: OPERATOR_EMAILS must be a comma-separated list'],
    [{ LOG_LEVEL: 'loud' }, 'Invalid configuration: LOG_LEVEL must be one of'],
    [{ PAYMENT_PROVIDER: 'paypal' }, 'Invalid configuration: PAYMENT_PROVIDER must be one of local, stripe'],
    [
      { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_1' },
      'Invalid configuration: PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
    ],
    [
      { STRIPE_SECRET_KEY: 'pk_test_1' },
      'Invalid configuration: STRIPE_SECRET_KEY must be a Stripe secret key',
    ],
    [{ STRIPE_WEBHOOK_SECRET: 'secret' }, 'Invalid configuration: STRIPE_WEBHOOK_SECRET must be a webhook'],
    [{ STRIPE_API_BASE: 'http://x.test/v1' }, 'Invalid configuration: STRIPE_API_BASE must be an origin'],
    [
      { NODE_ENV: 'production', PUBLIC_URL: 'http://keys.example.com' },
      'Invalid configuration: PUBLIC_URL must use https:// in production (plain http:// only for localhost)',
    ],
    [
      { NODE_ENV: 'production', PUBLIC_URL: 'http://192.168.1.10:3000' },
      'Invalid configuration: PUBLIC_URL must use https:// in production',
    ],
  ])('refuses %o with a one-line reason', (env, message) => {
    const reason = failure(env)
    expect(reason.startsWith(message)).toBe(true)
    expect(reason).not.toContain('\n')
  })

  it('makes the server exit 1 with one line on stderr', () => {
    const main = fileURLToPath(new URL('./main.ts', import.meta.url))
    const result = spawnSync(process.execPath, [main], {
      env: { ...process.env, PORT: 'abc' },
      encoding: 'utf8',
    })
    expect(result.status).toBe(1)
    expect(result.stderr).toBe('Invalid configuration: PORT must be an integer between 1 and 65535\n')
  })
})
