import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite'

/** Statements kept parsed per PGlite instance; texts beyond it go the unnamed way (bounded memory). */
const MAX_NAMED = 500

type Named = { name: string; paramTypes: number[] }

/**
 * PGlite's `query()` sends every statement through six protocol calls into its WebAssembly PostgreSQL (parse,
 * describe, bind, describe, execute, sync), so each one is parsed and planned again, with its relations' sizes
 * read from disk: about 1–1.6 ms a statement where a named statement costs 0.2–0.6 ms (measured, a keychain
 * read). This replaces the instance's `query` (what drizzle calls outside a transaction) by one that parses each
 * text once under a name and then sends bind, describe, execute and sync in one call. Inside a transaction
 * (`transaction()`, its own `tx.query`) nothing changes. Values are serialized by the parameter types the
 * statement was described with, and results parsed as `query()` does, with the same options.
 */
export async function withNamedStatements(client: PGlite): Promise<PGlite> {
  const { protocol, parse } = await import('@electric-sql/pglite')
  const { serialize } = protocol
  const unnamed = client.query.bind(client)
  const named = new Map<string, Named>()
  const concat = (parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0))
    let offset = 0
    for (const part of parts) {
      out.set(part, offset)
      offset += part.length
    }
    return out
  }
  const prepare = async (text: string, options?: QueryOptions): Promise<Named> => {
    const name = `s${named.size}`
    const { messages } = await client.execProtocol(
      concat([
        serialize.parse({ name, text, types: options?.paramTypes }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    )
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) }
    named.set(text, statement)
    return statement
  }
  /**
   * The instance's parsers with the query's own on top. `parseResults` would copy all of the instance's (over
   * 300 types) into a new object on every query given `options.parsers` — a quarter of a keychain read's CPU
   * (profiled); drizzle passes the same few overrides each time, so each set is layered once, on a prototype.
   */
  const layered = new WeakMap<object, Record<number, unknown>>()
  const parsersOf = (options: QueryOptions | undefined) => {
    const own = options?.parsers
    if (!own) return client.parsers
    let parsers = layered.get(own)
    if (!parsers) {
      parsers = Object.assign(Object.create(client.parsers), own) as Record<number, unknown>
      layered.set(own, parsers)
    }
    return parsers as typeof client.parsers
  }
  const query = async <T>(
    text: string,
    params: unknown[] = [],
    options?: QueryOptions,
  ): Promise<Results<T>> => {
    if (!named.has(text) && named.size >= MAX_NAMED) return unnamed<T>(text, params, options)
    return client._runExclusiveTransaction(async () => {
      const statement = named.get(text) ?? (await prepare(text, options))
      const values = params.map((param, index) => {
        if (param === null || param === undefined) return null
        const type = statement.paramTypes[index]!
        const serializer = options?.serializers?.[type] ?? client.serializers[type]
        return serializer ? serializer(param) : String(param)
      })
      const { messages } = await client.execProtocol(
        concat([
          serialize.bind({ statement: statement.name, values: values as (string | null)[] }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
      )
      return parse.parseResults(messages, parsersOf(options), {
        ...options,
        parsers: undefined,
      })[0] as Results<T>
    })
  }
  client.query = query as PGlite['query']
  return client
}
