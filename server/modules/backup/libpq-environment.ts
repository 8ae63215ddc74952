/** libpq's connection parameters that a client also reads from the environment, with their variable. */
const VARIABLES: Record<string, string> = {
  host: 'PGHOST',
  hostaddr: 'PGHOSTADDR',
  port: 'PGPORT',
  dbname: 'PGDATABASE',
  user: 'PGUSER',
  password: 'PGPASSWORD',
  passfile: 'PGPASSFILE',
  require_auth: 'PGREQUIREAUTH',
  channel_binding: 'PGCHANNELBINDING',
  service: 'PGSERVICE',
  options: 'PGOPTIONS',
  application_name: 'PGAPPNAME',
  connect_timeout: 'PGCONNECT_TIMEOUT',
  client_encoding: 'PGCLIENTENCODING',
  sslmode: 'PGSSLMODE',
  sslnegotiation: 'PGSSLNEGOTIATION',
  requiressl: 'PGREQUIRESSL',
  sslcompression: 'PGSSLCOMPRESSION',
  sslcert: 'PGSSLCERT',
  sslkey: 'PGSSLKEY',
  sslcertmode: 'PGSSLCERTMODE',
  sslrootcert: 'PGSSLROOTCERT',
  sslcrl: 'PGSSLCRL',
  sslcrldir: 'PGSSLCRLDIR',
  sslsni: 'PGSSLSNI',
  requirepeer: 'PGREQUIREPEER',
  ssl_min_protocol_version: 'PGSSLMINPROTOCOLVERSION',
  ssl_max_protocol_version: 'PGSSLMAXPROTOCOLVERSION',
  gssencmode: 'PGGSSENCMODE',
  krbsrvname: 'PGKRBSRVNAME',
  gsslib: 'PGGSSLIB',
  gssdelegation: 'PGGSSDELEGATION',
  target_session_attrs: 'PGTARGETSESSIONATTRS',
  load_balance_hosts: 'PGLOADBALANCEHOSTS',
}

// postgres[ql]://[user[:password]@][host[:port][,…]][/dbname][?name=value&…], as libpq reads it.
const URI = /^postgres(?:ql)?:\/\/(?:([^@/?#]*)@)?([^/?#]*)(?:\/([^?#]*))?(?:\?([^#]*))?(?:#.*)?$/

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    throw new Error('DATABASE_URL has a malformed %-escape')
  }
}

/**
 * The connection of `DATABASE_URL` as the `PG*` variables pg_dump, pg_restore and psql read, for their
 * environment: on their command line the password would be shown by `ps` to every local user, while a process's
 * environment is readable by its own user and root only. Throws, saying why, for a URL libpq would not take or a
 * parameter that has no variable.
 */
export function libpqEnvironment(databaseUrl: string): Record<string, string> {
  const parts = URI.exec(databaseUrl.trim())
  if (!parts) throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL')
  const [, userinfo, hostspec = '', dbname, query] = parts
  const env: Record<string, string> = {}
  const set = (name: string, value: string) => {
    const variable = VARIABLES[name]
    if (!variable)
      throw new Error(
        `DATABASE_URL sets ${name}, which pg_dump, pg_restore and psql take on their command line only`,
      )
    env[variable] = value
  }
  if (userinfo) {
    const colon = userinfo.indexOf(':')
    if (colon < 0) set('user', decoded(userinfo))
    else {
      if (colon > 0) set('user', decoded(userinfo.slice(0, colon)))
      set('password', decoded(userinfo.slice(colon + 1)))
    }
  }
  if (hostspec) {
    // host[:port], an IPv6 address in brackets; several, comma-separated, are tried in turn.
    const hosts = hostspec.split(',').map((spec) => {
      const each = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(spec)
      if (!each) throw new Error(`DATABASE_URL has a host that is not host[:port]: ${spec}`)
      return { host: decoded(each[1]!.replace(/^\[(.*)\]$/, '$1')), port: each[2] ?? '' }
    })
    if (hosts.some(({ host }) => host)) set('host', hosts.map(({ host }) => host).join(','))
    if (hosts.some(({ port }) => port)) set('port', hosts.map(({ port }) => port).join(','))
  }
  if (dbname) set('dbname', decoded(dbname))
  for (const pair of query ? query.split('&') : []) {
    if (!pair) continue
    const equals = pair.indexOf('=')
    if (equals < 0) throw new Error(`DATABASE_URL has a parameter without a value: ${pair}`)
    const name = decoded(pair.slice(0, equals))
    const value = decoded(pair.slice(equals + 1))
    // libpq's alias, from JDBC.
    if (name === 'ssl' && value === 'true') set('sslmode', 'require')
    else set(name, value)
  }
  return env
}
