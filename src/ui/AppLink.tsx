import { useNavigate } from '@tanstack/react-router'
import type { MouseEvent, ReactNode } from 'react'

/** A real link (opens in a new tab, copyable) that navigates inside the app without a page load. */
export function AppLink({
  href,
  className = 'font-semibold text-brand-700 underline-offset-4 hover:underline',
  children,
  ...rest
}: {
  href: string
  className?: string
  children: ReactNode
  'aria-label'?: string
  'aria-current'?: 'page' | undefined
}) {
  const navigate = useNavigate()
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (
      event.defaultPrevented ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey ||
      event.button !== 0
    ) {
      return
    }
    event.preventDefault()
    void navigate({ href })
  }
  return (
    <a href={href} onClick={follow} className={className} {...rest}>
      {children}
    </a>
  )
}
