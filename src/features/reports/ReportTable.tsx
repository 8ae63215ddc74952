import type { ReactNode } from 'react'

/** A report's table: one header row, rows divided, readable on paper as on screen. */
export function ReportTable({
  label,
  headers,
  children,
}: {
  label: string
  headers: ReactNode[]
  children: ReactNode
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm print:overflow-visible print:rounded-none print:border-0 print:shadow-none">
      <table aria-label={label} className="w-full text-left text-sm">
        <thead className="bg-slate-50 text-slate-700 print:bg-white">
          <tr>
            {headers.map((header, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
              <th key={index} scope="col" className="px-4 py-3 font-semibold">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">{children}</tbody>
      </table>
    </div>
  )
}

export const cellClass = 'px-4 py-3 align-top'
