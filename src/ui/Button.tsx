import type { ButtonHTMLAttributes, ReactNode } from 'react'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger'

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800 active:bg-brand-900',
  secondary: 'bg-white text-slate-900 border border-slate-300 hover:bg-slate-100 active:bg-slate-200',
  ghost: 'text-slate-800 hover:bg-slate-200/70 active:bg-slate-200',
  danger: 'bg-red-700 text-white hover:bg-red-800 active:bg-red-900',
}

export const buttonClass = (variant: ButtonVariant = 'primary', extra = '') =>
  `inline-flex min-h-11 min-w-11 items-center justify-center lg:min-h-10 lg:min-w-0 gap-2 rounded-lg px-4 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${variants[variant]} ${extra}`

export type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled' | 'onClick'> & {
  variant?: ButtonVariant
  onPress?: () => void
  isDisabled?: boolean
  children: ReactNode
}

/** A native button (light on every page's bundle) with the variants of the design. */
export function Button({
  variant = 'primary',
  className = '',
  onPress,
  isDisabled,
  type = 'button',
  ...props
}: ButtonProps) {
  return (
    <button
      {...props}
      type={type}
      disabled={isDisabled}
      onClick={onPress}
      className={buttonClass(variant, className)}
    />
  )
}
