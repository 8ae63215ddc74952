const TOAST_SEVERITIES = ['info', 'success', 'warn', 'error', 'secondary', 'contrast'] as const
export type ToastSeverity = (typeof TOAST_SEVERITIES)[number]

export const TOAST_POSITIONS = [
  'top-right',
  'top-left',
  'top-center',
  'bottom-left',
  'bottom-right',
  'bottom-center',
  'center',
] as const
export type ToastPosition = (typeof TOAST_POSITIONS)[number]

export const TOAST_OFFSET_PX = 20
export const TOAST_ENTER_MS = 300
export const TOAST_LEAVE_MS = 450
export const TOAST_STACK_DELAY_MS = 200

export type ToastInput = {
  id?: string
  severity?: ToastSeverity
  group?: string
  summary: string
  detail?: string
  /** Milliseconds before it closes by itself; without it the toast stays until closed. */
  life?: number
  closable?: boolean
  styleClass?: string
  position?: ToastPosition
}

export type Toast = Required<Pick<ToastInput, 'id' | 'severity' | 'summary' | 'closable' | 'position'>> &
  Pick<ToastInput, 'group' | 'detail' | 'life' | 'styleClass'> & { leaving: boolean; index: number }

type Listener = () => void

/** A small external store so any code (hooks, mutations, the API layer) can raise a toast. */
export function createToastStore() {
  let toasts: readonly Toast[] = []
  let counter = 0
  const listeners = new Set<Listener>()
  const timers = new Map<string, ReturnType<typeof setTimeout>>()

  const emit = () => {
    for (const listener of listeners) listener()
  }
  const set = (next: readonly Toast[]) => {
    toasts = next
    emit()
  }

  function remove(id: string) {
    clearTimeout(timers.get(id))
    timers.delete(id)
    set(toasts.filter((toast) => toast.id !== id))
  }

  function close(id: string) {
    if (!toasts.some((toast) => toast.id === id && !toast.leaving)) return
    set(toasts.map((toast) => (toast.id === id ? { ...toast, leaving: true } : toast)))
    timers.set(
      id,
      setTimeout(() => remove(id), TOAST_LEAVE_MS),
    )
  }

  function add(input: ToastInput): string {
    counter += 1
    const id = input.id ?? `toast-${counter}`
    const position = input.position ?? 'top-right'
    const index = toasts.filter((toast) => toast.position === position && !toast.leaving).length
    const toast: Toast = {
      ...input,
      severity: input.severity ?? 'info',
      closable: input.closable ?? true,
      id,
      position,
      leaving: false,
      index,
    }
    clearTimeout(timers.get(id))
    timers.delete(id)
    set([...toasts.filter((existing) => existing.id !== id), toast])
    if (input.life !== undefined) {
      timers.set(
        id,
        setTimeout(() => close(id), input.life + index * TOAST_STACK_DELAY_MS),
      )
    }
    return id
  }

  /** Closes every toast, or those of one group. */
  function clear(group?: string) {
    for (const toast of toasts) if (group === undefined || toast.group === group) close(toast.id)
  }

  return {
    add,
    close,
    clear,
    getSnapshot: () => toasts,
    subscribe(listener: Listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

export type ToastStore = ReturnType<typeof createToastStore>

export const toasts = createToastStore()
