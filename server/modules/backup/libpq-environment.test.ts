// DATABASE_URL as the PG* variables of pg_dump, pg_restore and psql: every part libpq reads from a URL, decoded.
import { describe, expect, it } from 'vitest'
import { libpqEnvironment } from './libpq-environment.ts'

describe('libpqEnvironment()', () => {
  it('gives host, port, user, password and database, %-decoded, and the query parameters', () => {
    expect(
      libpqEnvironment(
        'postgres://trousseau:p%40ss%3Aw%2Frd@db.example.test:6543/trousseau%20prod?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&application_name=backup&connect_timeout=10',
      ),
    ).toEqual({
      PGHOST: 'db.example.test',
      PGPORT: '6543',
      PGUSER: 'trousseau',
      PGPASSWORD: 'p@ss:w/rd',
      PGDATABASE: 'trousseau prod',
      PGSSLMODE: 'verify-full',
      PGSSLROOTCERT: '/etc/ca.pem',
      PGAPPNAME: 'backup',
      PGCONNECT_TIMEOUT: '10',
    })
  })

  it('leaves out what the URL does not say, so libpq’s defaults apply', () => {
    expect(libpqEnvironment('postgres://postgres@127.0.0.1:5432/test')).toEqual({
      PGHOST: '127.0.0.1',
      PGPORT: '5432',
      PGUSER: 'postgres',
      PGDATABASE: 'test',
    })
    expect(libpqEnvironment('postgresql://localhost')).toEqual({ PGHOST: 'localhost' })
    expect(libpqEnvironment('postgresql://')).toEqual({})
    // An empty user before the password: the password alone.
    expect(libpqEnvironment('postgres://:secret@h/d')).toEqual({
      PGHOST: 'h',
      PGPASSWORD: 'secret',
      PGDATABASE: 'd',
    })
  })

  it('takes IPv6 addresses, several hosts, a socket folder and the ssl=true alias', () => {
    expect(libpqEnvironment('postgres://u@[::1]:5433/d')).toMatchObject({ PGHOST: '::1', PGPORT: '5433' })
    expect(
      libpqEnvironment('postgres://u@a:5432,b,[2001:db8::2]:5434/d?target_session_attrs=read-write'),
    ).toEqual({
      PGUSER: 'u',
      PGHOST: 'a,b,2001:db8::2',
      PGPORT: '5432,,5434',
      PGDATABASE: 'd',
      PGTARGETSESSIONATTRS: 'read-write',
    })
    expect(libpqEnvironment('postgres:///trousseau?host=%2Fvar%2Frun%2Fpostgresql')).toEqual({
      PGDATABASE: 'trousseau',
      PGHOST: '/var/run/postgresql',
    })
    expect(libpqEnvironment('postgres://h/d?ssl=true')).toMatchObject({ PGSSLMODE: 'require' })
  })

  it('refuses what libpq would not take, or a parameter without a variable, never repeating the password', () => {
    const refusal = (url: string) => {
      try {
        libpqEnvironment(url)
      } catch (error) {
        return (error as Error).message
      }
      throw new Error(`took ${url}`)
    }
    expect(refusal('mysql://u:secret@h/d')).toBe('DATABASE_URL must be a postgres:// or postgresql:// URL')
    expect(refusal('postgres://u:secret@h/d?keepalives=1')).toBe(
      'DATABASE_URL sets keepalives, which pg_dump, pg_restore and psql take on their command line only',
    )
    expect(refusal('postgres://u:secret@h/d?sslmode')).toBe(
      'DATABASE_URL has a parameter without a value: sslmode',
    )
    expect(refusal('postgres://u:sec%ZZret@h/d')).toBe('DATABASE_URL has a malformed %-escape')
    expect(refusal('postgres://u:secret@h:54x/d')).toBe(
      'DATABASE_URL has a host that is not host[:port]: h:54x',
    )
  })
})
