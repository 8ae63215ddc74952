import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger'

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800 pressed:bg-brand-900',
  secondary: 'bg-white text-slate-900 border border-slate-300 hover:bg-slate-100 pressed:bg-slate-200',
  ghost: 'text-slate-800 hover:bg-slate-200/70 pressed:bg-slate-200',
  danger: 'bg-red-700 text-white hover:bg-red-800 pressed:bg-red-900',
}

export const buttonClass = (variant: ButtonVariant = 'primary', extra = '') =>
  `inline-flex min-h-10 items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${variants[variant]} ${extra}`

export function Button({
  variant = 'primary',
  className,
  ...props
}: AriaButtonProps & { variant?: ButtonVariant; className?: string }) {
  return <AriaButton {...props} className={buttonClass(variant, className)} />
}
