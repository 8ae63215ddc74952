import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withNamedStatements } from './pglite-named.ts'

let plain: PGlite
let named: PGlite

beforeAll(async () => {
  plain = await PGlite.create()
  named = await withNamedStatements(await PGlite.create())
  for (const client of [plain, named]) {
    await client.exec(
      'create table things (id int primary key, name text not null, at timestamptz, data jsonb, flags boolean[])',
    )
  }
})
afterAll(async () => {
  await plain.close()
  await named.close()
})

describe('withNamedStatements (PGlite)', () => {
  it('answers what query() answers: values serialized by their types, rows parsed alike, in both row modes', async () => {
    const at = new Date('2026-11-26T10:00:00.000Z')
    const insert = 'insert into things values ($1, $2, $3, $4, $5) returning id'
    for (const client of [plain, named]) {
      await client.query(insert, [1, 'one', at, { a: [1, 2] }, [true, false]])
      await client.query(insert, [2, 'two', null, null, null])
    }
    const select = 'select * from things where id = any($1::int[]) order by id'
    for (const rowMode of ['object', 'array'] as const) {
      // Twice: the second time goes through the statement parsed the first time.
      for (let round = 0; round < 2; round += 1) {
        const expected = await plain.query(select, [[1, 2]], { rowMode })
        const got = await named.query(select, [[1, 2]], { rowMode })
        expect(got.rows).toEqual(expected.rows)
        expect(got.fields).toEqual(expected.fields)
      }
    }
    // A query's own parsers win for their types; every other column is parsed as usual, also the second
    // time the same parsers come (as drizzle passes them).
    const parsers = { 1184: (value: string) => `at ${value}` }
    for (let round = 0; round < 2; round += 1) {
      const got = (await named.query('select * from things where id = $1', [1], { parsers })).rows
      expect(got).toEqual((await plain.query('select * from things where id = $1', [1], { parsers })).rows)
      expect(got).toEqual([
        {
          id: 1,
          name: 'one',
          at: expect.stringMatching(/^at 2026-11-26 /),
          data: { a: [1, 2] },
          flags: [true, false],
        },
      ])
    }
    expect((await named.query('select at from things where id = $1', [1])).rows).toEqual([{ at }])
  })

  it('throws PostgreSQL’s error with its code, and goes on answering after it', async () => {
    const duplicate = named.query('insert into things (id, name) values ($1, $2)', [1, 'again'])
    await expect(duplicate).rejects.toMatchObject({ code: '23505' })
    await expect(named.query('select nonsense from things')).rejects.toMatchObject({ code: '42703' })
    expect((await named.query<{ n: number }>('select count(*)::int as n from things')).rows).toEqual([
      { n: 2 },
    ])
  })

  it('leaves transactions as they were, and waits for one to end', async () => {
    let release!: () => void
    let inserted!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const started = new Promise<void>((resolve) => (inserted = resolve))
    const transaction = named.transaction(async (tx) => {
      await tx.query('insert into things (id, name) values ($1, $2)', [3, 'three'])
      inserted()
      await held
      await tx.query('update things set name = $1 where id = $2', ['three!', 3])
    })
    await started
    const outside = named.query<{ name: string }>('select name from things where id = $1', [3])
    release()
    await transaction
    expect((await outside).rows).toEqual([{ name: 'three!' }])
  })
})
