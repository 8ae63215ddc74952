import { describe, expect, it } from 'vitest'
import { makeTags, organizationWithAdmin } from '../../tests/server/fixtures.ts'
import { setupTestApp } from '../../tests/server/harness.ts'

const t = setupTestApp()

/** PostgreSQL stores no U+0000 in text or jsonb: every way in must be a 400, never a 500. */
async function expectNulRefused(
  response: Response,
  path: string,
  message = 'Text must not contain NUL characters.',
) {
  expect(response.status).toBe(400)
  const { error } = await response.json()
  expect(error.code).toBe('validation_failed')
  expect(error.message).toBe(message)
  expect(error.issues).toEqual([{ path, message }])
}

describe('U+0000 in any input', () => {
  it('is a 400 validation_failed in a body field, a query, a cursor and the public found-report', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { cookie } = admin

    // A name refuses every control character, NUL included, with its own message.
    await expectNulRefused(
      await t.post('/api/keychains', { cookie, json: { name: 'Cave\u0000' } }),
      'name',
      'Line breaks, tabs and other control characters are not allowed here.',
    )
    await expectNulRefused(await t.get('/api/keychains?q=%00', { cookie }), 'q')
    await expectNulRefused(await t.get('/api/tags?q=a%00b', { cookie }), 'q')

    const cursor = (key: string[]) => Buffer.from(JSON.stringify(key)).toString('base64url')
    for (const path of [
      `/api/keychains?cursor=${cursor(['a\u0000', '00000000-0000-4000-8000-000000000000'])}`,
      `/api/tags?cursor=${cursor(['TST-\u0000'])}`,
    ]) {
      await expectNulRefused(await t.get(path, { cookie }), 'cursor', 'Malformed cursor.')
    }

    const [tag] = await makeTags(t, organization.id, 1)
    await expectNulRefused(
      await t.post(`/api/tags/${tag!.publicId}/found-reports`, {
        json: { message: 'Trouvé\u0000', contact: '06' },
      }),
      'message',
    )
    // The rest still works.
    expect((await t.get('/api/keychains?q=cave', { cookie })).status).toBe(200)
  })
})
