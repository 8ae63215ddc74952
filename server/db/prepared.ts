import type { Db } from './client.ts'

/**
 * A statement built once per database and reused by every request: drizzle's query building (walking the
 * selection, naming and escaping every column) costs more Node time than sending a named statement, about a
 * quarter of a scan's. `build` must use `sql.placeholder` for every value, and its statements must be named
 * (`.prepare(name)`): parsed and planned once per connection. A transaction's `tx` is a database of its own
 * here (its statements are bound to its connection): build for the pool's `db`.
 */
export function oncePerDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>()
  return (db) => {
    let statements = built.get(db)
    if (!statements) {
      statements = build(db)
      built.set(db, statements)
    }
    return statements
  }
}
