import { useSyncExternalStore } from 'react'

/** The keychain deleted last on this page, offered for an undo until the bar closes (or another is deleted). */
export type DeletedKeychain = { id: string; name: string; at: number }

let current: DeletedKeychain | null = null
const listeners = new Set<() => void>()

function emit() {
  for (const listener of listeners) listener()
}

export const undoDeletion = {
  offer(keychain: { id: string; name: string }) {
    current = { ...keychain, at: Date.now() }
    emit()
  },
  dismiss(id?: string) {
    if (id !== undefined && current?.id !== id) return
    current = null
    emit()
  },
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The deletion the undo bar offers (it survives the move from a keychain's page to the list). */
export function useDeletionToUndo(): DeletedKeychain | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  )
}
