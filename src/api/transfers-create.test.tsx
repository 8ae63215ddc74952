import { act } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../tests/render.tsx'
import { useCreateTransfer } from './transfers.ts'

const KEYCHAIN = '00000000-0000-4000-8000-0000000000c1'
const refusal = (status: number, code: string) =>
  new Response(JSON.stringify({ error: { code, message: 'Refused.' } }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })

type Mutation = ReturnType<typeof useCreateTransfer>

/** Hands the hook's mutation out to the test. */
function Probe({ onRender }: { onRender: (mutation: Mutation) => void }) {
  onRender(useCreateTransfer(KEYCHAIN))
  return null
}

afterEach(() => {
  vi.unstubAllGlobals()
})

/** Sends an authorization the server refuses with `answer`; which queries were asked again. */
async function refusedWith(answer: Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => answer),
  )
  let create: Mutation | undefined
  const { queryClient } = renderWithProviders(<Probe onRender={(mutation) => (create = mutation)} />)
  const invalidated = vi.spyOn(queryClient, 'invalidateQueries')
  await act(async () => {
    await create!
      .mutateAsync({
        recipient: { kind: 'member', userId: '00000000-0000-4000-8000-0000000000b1' },
        fromDate: '2030-01-15',
        toDate: '2030-01-17',
      })
      .catch(() => undefined)
  })
  return invalidated.mock.calls.map(([filters]) => filters?.queryKey)
}

describe('authorizing a transfer the server refuses', () => {
  it('asks the keychain’s overlaps again when the days were taken meanwhile (409 transfer_overlap)', async () => {
    expect(await refusedWith(refusal(409, 'transfer_overlap'))).toEqual([['transfers', 'overlaps', KEYCHAIN]])
  })

  it('leaves them for any other refusal', async () => {
    expect(await refusedWith(refusal(409, 'conflict'))).toEqual([])
    expect(await refusedWith(refusal(402, 'subscription_required'))).toEqual([])
  })
})
