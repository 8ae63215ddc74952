import * as v from 'valibot'

const NODE_ENVS = ['development', 'production', 'test'] as const
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
const PAYMENT_PROVIDERS = ['local', 'stripe'] as const
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number]

export type Config = {
  port: number
  host: string
  nodeEnv: (typeof NODE_ENVS)[number]
  dataDir: string
  /** Null means the embedded PGlite database under `$DATA_DIR/pglite`. */
  databaseUrl: string | null
  /** Origin (and optional path) of the SPA; links in mail point here and it is the trusted Origin. */
  publicUrl: string
  /** Null means: read or create `$DATA_DIR/secret.key` (see `resolveSessionSecret`). */
  sessionSecret: string | null
  /** Null means: write mail as .eml files to `$DATA_DIR/outbox/` and log the sign-in link. */
  smtpUrl: string | null
  mailFrom: string
  /** How often this process looks for due jobs (mails, reminders), in ms; 0: it runs none (a web-only process). */
  jobsPollMs: number
  logLevel: (typeof LOG_LEVELS)[number]
  corsOrigins: string[]
  operatorEmails: string[]
  trustProxy: boolean
  staticDir: string
  /** APP_VERSION; null means the package.json version. */
  appVersion: string | null
  /** Who takes new payments: the server's own sandbox page (`local`) or Stripe Checkout. */
  paymentProvider: PaymentProviderName
  stripeSecretKey: string | null
  stripeWebhookSecret: string | null
  /** Where the Stripe SDK sends its calls instead of api.stripe.com (tests' loopback double). */
  stripeApiBase: { protocol: 'http' | 'https'; host: string; port: number } | null
  /** Whether webhooks may target loopback and private networks: only when set, whatever NODE_ENV says. */
  webhookAllowPrivateTargets: boolean
  /** The whole of one webhook attempt (connection, answer), in ms. */
  webhookTimeoutMs: number
  /** How long a stop (SIGTERM) waits for in-flight requests and the running jobs before it cuts them off. */
  shutdownGraceMs: number
  /** The bearer token `/api/metrics` asks for; null: the endpoint does not exist (404). */
  metricsToken: string | null
  /** Web Push's VAPID key pair (base64url); null: made once and kept in `$DATA_DIR/vapid.json`. */
  vapidKeys: { publicKey: string; privateKey: string } | null
  /** Who push services may contact about this server's pushes: a `mailto:` or `https:` address. */
  vapidSubject: string
  /** How an organization proves an e-mail domain for its sign-in: a DNS TXT record, or an admin's word. */
  oidcDomainProof: 'dns' | 'confirm'
  /** Whether an identity provider may be reached over plain http (a provider on this machine, for tests). */
  oidcAllowHttpIssuers: boolean
}

const optionalText = v.optional(v.pipe(v.string(), v.trim()), '')

const originSchema = (name: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.check((value) => {
      try {
        const url = new URL(value)
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value
      } catch {
        return false
      }
    }, `${name} must be a comma-separated list of origins like https://app.example.com (never *)`),
  )

const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')

const EnvSchema = v.object({
  PORT: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d+$/, 'PORT must be an integer between 1 and 65535'),
      v.transform(Number),
      v.integer('PORT must be an integer between 1 and 65535'),
      v.minValue(1, 'PORT must be an integer between 1 and 65535'),
      v.maxValue(65535, 'PORT must be an integer between 1 and 65535'),
    ),
    '3000',
  ),
  HOST: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('HOST must not be empty')), '0.0.0.0'),
  NODE_ENV: v.optional(
    v.picklist(NODE_ENVS, 'NODE_ENV must be one of development, production, test'),
    'development',
  ),
  DATA_DIR: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('DATA_DIR must not be empty')), './data'),
  DATABASE_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^(postgres|postgresql):\/\/\S+$|^$/,
        'DATABASE_URL must start with postgres:// or postgresql://',
      ),
    ),
    '',
  ),
  PUBLIC_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.url('PUBLIC_URL must be an absolute http(s) URL'),
      v.regex(/^https?:\/\//, 'PUBLIC_URL must be an absolute http(s) URL'),
      v.transform((value) => value.replace(/\/+$/, '')),
    ),
  ),
  SESSION_SECRET: v.optional(
    v.pipe(
      v.string(),
      v.check((value) => value === '' || value.length >= 32, 'SESSION_SECRET must be at least 32 characters'),
    ),
    '',
  ),
  SMTP_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^(smtps?:\/\/\S+)?$/, 'SMTP_URL must start with smtp:// or smtps://'),
    ),
    '',
  ),
  MAIL_FROM: v.optional(
    v.pipe(v.string(), v.trim(), v.nonEmpty('MAIL_FROM must not be empty')),
    'Trousseau <no-reply@localhost>',
  ),
  JOBS_POLL_MS: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d+$/, 'JOBS_POLL_MS must be a whole number of milliseconds (0 runs no jobs here)'),
      v.transform(Number),
    ),
    '5000',
  ),
  LOG_LEVEL: v.optional(v.picklist(LOG_LEVELS, `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`), 'info'),
  CORS_ORIGINS: v.optional(v.pipe(v.string(), v.transform(list), v.array(originSchema('CORS_ORIGINS'))), ''),
  OPERATOR_EMAILS: v.optional(
    v.pipe(
      v.string(),
      v.transform((value) => list(value).map((email) => email.toLowerCase())),
      v.array(
        v.pipe(v.string(), v.email('OPERATOR_EMAILS must be a comma-separated list of e-mail addresses')),
      ),
    ),
    '',
  ),
  TRUST_PROXY: v.optional(
    v.pipe(
      v.picklist(['true', 'false', '1', '0', ''], 'TRUST_PROXY must be true or false'),
      v.transform((value) => value === 'true' || value === '1'),
    ),
    'false',
  ),
  OIDC_DOMAIN_PROOF: v.optional(
    v.picklist(['dns', 'confirm'], 'OIDC_DOMAIN_PROOF must be dns or confirm'),
    'dns',
  ),
  OIDC_ALLOW_HTTP_ISSUERS: v.optional(
    v.pipe(
      v.picklist(['true', 'false', '1', '0', ''], 'OIDC_ALLOW_HTTP_ISSUERS must be true or false'),
      v.transform((value) => value === 'true' || value === '1'),
    ),
    'false',
  ),
  STATIC_DIR: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('STATIC_DIR must not be empty')), './dist'),
  APP_VERSION: optionalText,
  ALLOW_SANDBOX_PAYMENTS: v.optional(
    v.pipe(
      v.picklist(['true', 'false', '1', '0'], 'ALLOW_SANDBOX_PAYMENTS must be true or false'),
      v.transform((value) => value === 'true' || value === '1'),
    ),
    'false',
  ),
  PAYMENT_PROVIDER: v.optional(
    v.picklist(PAYMENT_PROVIDERS, `PAYMENT_PROVIDER must be one of ${PAYMENT_PROVIDERS.join(', ')}`),
    'local',
  ),
  STRIPE_SECRET_KEY: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^((sk|rk)_\S+)?$/, 'STRIPE_SECRET_KEY must be a Stripe secret key (sk_… or rk_…)'),
    ),
    '',
  ),
  STRIPE_WEBHOOK_SECRET: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^(whsec_\S+)?$/, 'STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)'),
    ),
    '',
  ),
  SHUTDOWN_GRACE_MS: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d+$/, 'SHUTDOWN_GRACE_MS must be a whole number of milliseconds'),
      v.transform(Number),
    ),
    '10000',
  ),
  METRICS_TOKEN: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^([A-Za-z0-9._~+/=-]{32,})?$/,
        'METRICS_TOKEN must be at least 32 characters (letters, digits, ._~+/=-)',
      ),
    ),
    '',
  ),
  VAPID_PUBLIC_KEY: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^([A-Za-z0-9_-]{87})?$/,
        'VAPID_PUBLIC_KEY must be a raw P-256 public key, base64url (87 characters)',
      ),
    ),
    '',
  ),
  VAPID_PRIVATE_KEY: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^([A-Za-z0-9_-]{43})?$/,
        'VAPID_PRIVATE_KEY must be a P-256 private key, base64url (43 characters)',
      ),
    ),
    '',
  ),
  VAPID_SUBJECT: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)?$/,
        'VAPID_SUBJECT must be a mailto: address (mailto:ops@example.com) or an https:// URL',
      ),
    ),
    '',
  ),
  STRIPE_API_BASE: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.check((value) => {
        if (value === '') return true
        try {
          const url = new URL(value)
          return (
            (url.protocol === 'http:' || url.protocol === 'https:') &&
            url.origin === value.replace(/\/+$/, '')
          )
        } catch {
          return false
        }
      }, 'STRIPE_API_BASE must be an origin like http://127.0.0.1:12111'),
    ),
    '',
  ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: v.optional(
    v.picklist(['true', 'false', '1', '0'], 'WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false'),
    'false',
  ),
  WEBHOOK_TIMEOUT_MS: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d+$/, 'WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds from 100 to 60000'),
      v.transform(Number),
      v.minValue(100, 'WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds from 100 to 60000'),
      v.maxValue(60_000, 'WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds from 100 to 60000'),
    ),
    '5000',
  ),
})

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError whose message is one line naming the bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  // An empty variable counts as unset, as in most shells' `VAR= node …`.
  const defined = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  )
  const result = v.safeParse(EnvSchema, defined)
  if (!result.success) {
    const issue = result.issues[0]
    const name = String(issue.path?.[0]?.key ?? 'environment')
    const message = issue.message.includes(name) ? issue.message : `${name} is invalid: ${issue.message}`
    throw new ConfigError(`Invalid configuration: ${message}`)
  }
  const e = result.output
  if (e.NODE_ENV === 'production' && e.PUBLIC_URL && !secureEnough(e.PUBLIC_URL)) {
    throw new ConfigError(
      'Invalid configuration: PUBLIC_URL must use https:// in production (plain http:// only for localhost)',
    )
  }
  if (
    e.NODE_ENV === 'production' &&
    e.PAYMENT_PROVIDER === 'local' &&
    !e.ALLOW_SANDBOX_PAYMENTS &&
    !onlyThisMachine(e.PUBLIC_URL, e.CORS_ORIGINS)
  ) {
    throw new ConfigError(
      'Invalid configuration: PAYMENT_PROVIDER=local (the sandbox: anyone can pay without paying) is refused in production; set PAYMENT_PROVIDER=stripe, or ALLOW_SANDBOX_PAYMENTS=true for a demo',
    )
  }
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(
      'Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together (npx web-push generate-vapid-keys makes a pair)',
    )
  }
  if (e.PAYMENT_PROVIDER === 'stripe' && (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Invalid configuration: PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
    )
  }
  return {
    port: e.PORT,
    host: e.HOST,
    nodeEnv: e.NODE_ENV,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL || null,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    sessionSecret: e.SESSION_SECRET || null,
    smtpUrl: e.SMTP_URL || null,
    mailFrom: e.MAIL_FROM,
    jobsPollMs: e.JOBS_POLL_MS,
    logLevel: e.LOG_LEVEL,
    corsOrigins: e.CORS_ORIGINS,
    operatorEmails: e.OPERATOR_EMAILS,
    trustProxy: e.TRUST_PROXY,
    staticDir: e.STATIC_DIR,
    appVersion: e.APP_VERSION || null,
    paymentProvider: e.PAYMENT_PROVIDER,
    stripeSecretKey: e.STRIPE_SECRET_KEY || null,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET || null,
    stripeApiBase: e.STRIPE_API_BASE ? apiBase(e.STRIPE_API_BASE) : null,
    webhookAllowPrivateTargets:
      e.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true' || e.WEBHOOK_ALLOW_PRIVATE_TARGETS === '1',
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    metricsToken: e.METRICS_TOKEN || null,
    vapidKeys: e.VAPID_PUBLIC_KEY ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY } : null,
    vapidSubject: e.VAPID_SUBJECT || `mailto:${addressOf(e.MAIL_FROM)}`,
    oidcDomainProof: e.OIDC_DOMAIN_PROOF,
    oidcAllowHttpIssuers: e.OIDC_ALLOW_HTTP_ISSUERS,
  }
}

/** The address of `Name <address>` or of a bare address. */
function addressOf(mailFrom: string): string {
  return /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom
}

function apiBase(value: string): NonNullable<Config['stripeApiBase']> {
  const url = new URL(value)
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return { protocol, host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)) }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** https, or plain http on a loopback address (a production build tried out on one's own machine). */
function secureEnough(publicUrl: string): boolean {
  const url = new URL(publicUrl)
  return url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname)
}

/**
 * A production build tried out on one's own machine (`npm start` with no PUBLIC_URL, the browser tests, the
 * benchmarks): PUBLIC_URL and every CORS origin on a loopback host. Browsers elsewhere cannot use the app
 * then (their Origin is not trusted), so the sandbox's "pay" button serves no one but this machine.
 */
function onlyThisMachine(publicUrl: string | undefined, corsOrigins: string[]): boolean {
  const loopback = (url: string) => LOOPBACK_HOSTS.has(new URL(url).hostname)
  return (publicUrl === undefined || loopback(publicUrl)) && corsOrigins.every(loopback)
}

/** The origin of PUBLIC_URL, e.g. `https://trousseau.example` for `https://trousseau.example/app`. */
export function publicOrigin(config: Pick<Config, 'publicUrl'>): string {
  return new URL(config.publicUrl).origin
}

export function isSecureDeployment(config: Pick<Config, 'publicUrl'>): boolean {
  return config.publicUrl.startsWith('https://')
}
