import { KeyRound } from 'lucide-react'

export function Logo({ className = '' }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 font-bold tracking-tight text-slate-900 ${className}`}>
      <span className="inline-flex size-8 items-center justify-center rounded-lg bg-brand-700 text-white">
        <KeyRound aria-hidden className="size-5" />
      </span>
      Trousseau
    </span>
  )
}
