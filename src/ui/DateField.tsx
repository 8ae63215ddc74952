import { type CalendarDate, parseDate } from '@internationalized/date'
import { useLingui } from '@lingui/react/macro'
import { CalendarDays, ChevronLeft, ChevronRight } from 'lucide-react'
import type { ReactNode } from 'react'
import {
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DatePicker,
  DateSegment,
  Dialog,
  FieldError,
  Group,
  Heading,
  I18nProvider,
  Label,
  Popover,
  Text,
} from 'react-aria-components'
import { intlLocaleOf } from '../lib/format.ts'
import { useLocale } from '../lib/use-locale.ts'

function parsed(value: string): CalendarDate | null {
  try {
    return value ? parseDate(value) : null
  } catch {
    return null
  }
}

/**
 * A calendar day (`YYYY-MM-DD`, '' when empty): typed segment by segment in the order of the app's language
 * (day/month/year in French), or picked on a calendar that speaks it too.
 */
export function DateField({
  label,
  name,
  value,
  onChange,
  min,
  error,
  description,
}: {
  label: ReactNode
  name: string
  value: string
  onChange: (value: string) => void
  /** The first day that may be picked. */
  min?: string | undefined
  error?: string | undefined
  description?: ReactNode
}) {
  const { t } = useLingui()
  const locale = useLocale()
  const minValue = min ? parsed(min) : null
  return (
    <I18nProvider locale={intlLocaleOf(locale)}>
      <DatePicker
        name={name}
        value={parsed(value)}
        onChange={(day) => onChange(day ? day.toString() : '')}
        minValue={minValue}
        isInvalid={error !== undefined}
        shouldForceLeadingZeros
        className="flex flex-col gap-1.5"
      >
        <Label className="text-sm font-medium text-slate-800">{label}</Label>
        <Group className="flex min-h-11 items-center rounded-lg border border-slate-300 bg-white pl-3 focus-within:border-brand-600 focus-within:outline-2 focus-within:outline-brand-600/30 invalid:border-red-600">
          <DateInput className="flex flex-1 py-2 text-base text-slate-900">
            {(segment) => (
              <DateSegment
                segment={segment}
                className="rounded px-0.5 tabular-nums outline-none focus:bg-brand-600 focus:text-white data-[placeholder]:text-slate-500"
              />
            )}
          </DateInput>
          <Button
            aria-label={t`Open the calendar`}
            className="flex min-h-11 min-w-11 items-center justify-center rounded-r-lg text-slate-700 hover:bg-slate-100"
          >
            <CalendarDays aria-hidden className="size-5" />
          </Button>
        </Group>
        {description && !error ? (
          <Text slot="description" className="text-sm text-slate-600">
            {description}
          </Text>
        ) : null}
        <FieldError className="text-sm font-medium text-red-700">{error}</FieldError>
        <Popover className="rounded-xl border border-slate-200 bg-white p-3 shadow-lg">
          <Dialog className="outline-none">
            <Calendar>
              <header className="mb-2 flex items-center justify-between gap-2">
                <Button
                  slot="previous"
                  aria-label={t`Previous month`}
                  className="rounded p-2 hover:bg-slate-100"
                >
                  <ChevronLeft aria-hidden className="size-4" />
                </Button>
                <Heading className="font-semibold text-slate-900" />
                <Button slot="next" aria-label={t`Next month`} className="rounded p-2 hover:bg-slate-100">
                  <ChevronRight aria-hidden className="size-4" />
                </Button>
              </header>
              <CalendarGrid className="border-separate border-spacing-1">
                {(date) => (
                  <CalendarCell
                    date={date}
                    className="flex size-10 items-center justify-center rounded-lg text-sm outline-none hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 data-[disabled]:text-slate-300 data-[outside-month]:hidden data-[selected]:bg-brand-700 data-[selected]:text-white"
                  />
                )}
              </CalendarGrid>
            </Calendar>
          </Dialog>
        </Popover>
      </DatePicker>
    </I18nProvider>
  )
}
