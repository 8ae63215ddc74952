import { type FormEvent, useState } from 'react'

/**
 * A form's submit held in React state: the page does not navigate, `pending` is true while `send` runs, and a
 * submit while one runs is ignored. `send` checks the values first and returns early when it refuses them.
 */
export function useSubmit(send: () => Promise<void>) {
  const [pending, setPending] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (pending) return
    setPending(true)
    try {
      await send()
    } finally {
      setPending(false)
    }
  }
  return { pending, submit }
}
