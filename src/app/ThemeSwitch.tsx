import { useLingui } from '@lingui/react/macro'
import { Monitor, Moon, Sun } from 'lucide-react'
import { THEMES, type Theme } from '../../contract/theme.ts'

const ICONS = { system: Monitor, light: Sun, dark: Moon } satisfies Record<Theme, typeof Sun>

/** System, light or dark: three radio buttons side by side. */
export function ThemeSwitch({ theme, onChange }: { theme: Theme; onChange: (theme: Theme) => void }) {
  const { t } = useLingui()
  const names: Record<Theme, string> = { system: t`System`, light: t`Light`, dark: t`Dark` }
  return (
    <fieldset className="px-3">
      <legend className="mb-1 text-sm font-medium text-slate-600">{t`Theme`}</legend>
      <div className="grid grid-cols-3 gap-1 rounded-lg bg-slate-100 p-1">
        {THEMES.map((each) => {
          const Icon = ICONS[each]
          return (
            <label
              key={each}
              className="flex min-h-11 cursor-pointer flex-col items-center justify-center gap-0.5 rounded-md px-1 py-1 text-xs font-semibold text-slate-700 hover:text-slate-900 has-checked:bg-white has-checked:text-brand-800 has-checked:shadow-sm has-checked:ring-1 has-checked:ring-brand-600 has-focus-visible:outline-2 has-focus-visible:outline-brand-600"
            >
              <input
                type="radio"
                name="theme"
                value={each}
                checked={theme === each}
                onChange={() => onChange(each)}
                className="sr-only"
              />
              <Icon aria-hidden className="size-4 shrink-0" />
              {names[each]}
            </label>
          )
        })}
      </div>
    </fieldset>
  )
}
