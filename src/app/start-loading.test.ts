import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it, vi } from 'vitest'
import { startLoading } from './start-loading.ts'

describe('a detail route starting its screen’s query', () => {
  it('fetches once into the cache the screen reads, without waiting for it', async () => {
    const queryClient = new QueryClient()
    let answer: (value: string) => void = () => {}
    const queryFn = vi.fn(() => new Promise<string>((resolve) => (answer = resolve)))
    const returned = startLoading(queryClient, { queryKey: ['keychains', 'o1', 'k1'], queryFn })
    expect(returned).toBeUndefined()
    startLoading(queryClient, { queryKey: ['keychains', 'o1', 'k1'], queryFn })
    expect(queryFn).toHaveBeenCalledOnce()
    answer('Cave du 14')
    await vi.waitFor(() => expect(queryClient.getQueryData(['keychains', 'o1', 'k1'])).toBe('Cave du 14'))
  })

  it('leaves a failure to the screen: the query is in error, nothing is thrown', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    startLoading(queryClient, {
      queryKey: ['orders', 'o1'],
      queryFn: () => Promise.reject(new Error('offline')),
    })
    await vi.waitFor(() => expect(queryClient.getQueryState(['orders', 'o1'])?.status).toBe('error'))
  })
})
