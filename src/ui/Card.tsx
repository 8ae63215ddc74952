import type { ReactNode } from 'react'

export function Card({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <section className={`rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 ${className}`}>
      {children}
    </section>
  )
}

export function PageHeader({
  title,
  documentTitle,
  children,
}: {
  title: ReactNode
  /** The tab's title when the heading is not the page's name (a greeting, say); default: the heading. */
  documentTitle?: string
  children?: ReactNode
}) {
  return (
    <header
      className="mb-6 flex flex-wrap items-center justify-between gap-3"
      data-document-title={documentTitle}
    >
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      {children}
    </header>
  )
}
