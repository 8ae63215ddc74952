import type { ReactNode } from 'react'
import { Tabs as AriaTabs, Tab, TabList, TabPanel } from 'react-aria-components'

export type TabItem = { id: string; label: ReactNode; content: ReactNode }

export function Tabs({
  label,
  items,
  selected,
  onSelect,
}: {
  label: string
  items: TabItem[]
  selected: string
  onSelect: (id: string) => void
}) {
  return (
    <AriaTabs selectedKey={selected} onSelectionChange={(key) => onSelect(String(key))}>
      <TabList aria-label={label} className="mb-5 flex gap-1 overflow-x-auto border-b border-slate-200">
        {items.map((item) => (
          <Tab
            key={item.id}
            id={item.id}
            className="-mb-px cursor-pointer border-b-2 border-transparent px-4 py-2.5 text-sm font-semibold text-slate-700 outline-none hover:text-slate-900 selected:border-brand-700 selected:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            {item.label}
          </Tab>
        ))}
      </TabList>
      {items.map((item) => (
        <TabPanel key={item.id} id={item.id} className="outline-none">
          {item.content}
        </TabPanel>
      ))}
    </AriaTabs>
  )
}
