import { useLingui } from '@lingui/react/macro'
import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from 'lucide-react'
import { useSyncExternalStore } from 'react'
import {
  toasts as defaultStore,
  TOAST_ENTER_MS,
  TOAST_LEAVE_MS,
  TOAST_OFFSET_PX,
  TOAST_POSITIONS,
  TOAST_STACK_DELAY_MS,
  type Toast,
  type ToastPosition,
  type ToastSeverity,
  type ToastStore,
} from './store.ts'

const placement: Record<ToastPosition, string> = {
  'top-right': 'top-0 right-0 items-end',
  'top-left': 'top-0 left-0 items-start',
  'top-center': 'top-0 left-1/2 -translate-x-1/2 items-center',
  'bottom-left': 'bottom-0 left-0 items-start',
  'bottom-right': 'bottom-0 right-0 items-end',
  'bottom-center': 'bottom-0 left-1/2 -translate-x-1/2 items-center',
  center: 'top-1/2 left-1/2 -translate-x-1/2 -translate-y-1/2 items-center',
}

const tone: Record<ToastSeverity, string> = {
  info: 'bg-sky-50 text-sky-950 border-sky-300',
  success: 'bg-emerald-50 text-emerald-950 border-emerald-300',
  warn: 'bg-amber-50 text-amber-950 border-amber-300',
  error: 'bg-red-50 text-red-950 border-red-300',
  secondary: 'bg-slate-100 text-slate-900 border-slate-300',
  contrast: 'bg-slate-900 text-white border-slate-900',
}

const icons: Record<ToastSeverity, typeof Info> = {
  info: Info,
  success: CircleCheck,
  warn: TriangleAlert,
  error: CircleAlert,
  secondary: Info,
  contrast: Info,
}

function ToastItem({ toast, onClose }: { toast: Toast; onClose: (id: string) => void }) {
  const { t } = useLingui()
  const Icon = icons[toast.severity]
  const urgent = toast.severity === 'error' || toast.severity === 'warn'
  return (
    <div
      role={urgent ? 'alert' : 'status'}
      data-severity={toast.severity}
      data-group={toast.group}
      className={`toast pointer-events-auto flex w-[min(24rem,calc(100vw-2.5rem))] gap-3 rounded-lg border p-4 shadow-lg ${tone[toast.severity]} ${toast.leaving ? 'toast-leave' : 'toast-enter'} ${toast.styleClass ?? ''}`}
      style={{
        animationDuration: `${toast.leaving ? TOAST_LEAVE_MS : TOAST_ENTER_MS}ms`,
        animationDelay: toast.leaving ? '0ms' : `${toast.index * TOAST_STACK_DELAY_MS}ms`,
      }}
    >
      <Icon aria-hidden className="mt-0.5 size-5 shrink-0" />
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{toast.summary}</p>
        {toast.detail ? <p className="mt-1 text-sm">{toast.detail}</p> : null}
      </div>
      {toast.closable ? (
        <button
          type="button"
          onClick={() => onClose(toast.id)}
          aria-label={t`Close`}
          className="-m-1 h-8 w-8 shrink-0 rounded-md p-1 hover:bg-black/10 focus-visible:outline-2 focus-visible:outline-current"
        >
          <X aria-hidden className="m-auto size-4" />
        </button>
      ) : null}
    </div>
  )
}

export function Toaster({ store = defaultStore }: { store?: ToastStore }) {
  const items = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
  return (
    <>
      {TOAST_POSITIONS.map((position) => {
        const here = items.filter((toast) => toast.position === position)
        if (here.length === 0) return null
        return (
          <div
            key={position}
            data-position={position}
            className={`pointer-events-none fixed z-50 flex flex-col gap-3 ${placement[position]}`}
            style={{ margin: TOAST_OFFSET_PX }}
          >
            {here.map((toast) => (
              <ToastItem key={toast.id} toast={toast} onClose={store.close} />
            ))}
          </div>
        )
      })}
    </>
  )
}
