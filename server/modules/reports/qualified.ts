import { type Column, getTableName, type SQL, sql, type Table } from 'drizzle-orm'

/**
 * `"table"."column"`: drizzle names a column bare when its statement reads one table, and a bare outer column
 * inside a correlated subquery means the inner table's (or is ambiguous).
 */
export function qualified(table: Table | string, column: Column | string): SQL {
  const tableName = typeof table === 'string' ? table : getTableName(table)
  const columnName = typeof column === 'string' ? column : column.name
  return sql`${sql.identifier(tableName)}.${sql.identifier(columnName)}`
}
