import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { CircleAlert, CircleCheck, Download, Upload } from 'lucide-react'
import { useId, useState } from 'react'
import { ErrorCode } from '../../../contract/errors.ts'
import {
  IMPORT_MAX_CHARS,
  type ImportPreview,
  type ImportResult,
  KEYCHAIN_CSV_COLUMNS,
} from '../../../contract/keychain-import.ts'
import { keychainExportHref } from '../../api/keychain-export.ts'
import { useCommitImport, usePreviewImport } from '../../api/keychain-imports.ts'
import { useAbility } from '../../lib/ability.tsx'
import { ApiError } from '../../lib/api.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { EmptyState } from '../../ui/States.tsx'
import { CSV_COLUMN_LABELS, csvFileProblem, IMPORT_ERROR_LABELS } from './import-labels.ts'

type Loaded = { name: string; csv: string; preview: ImportPreview; key: string }

const CELL = 'border-b border-slate-200 px-3 py-2 text-left align-top'

function PreviewErrors({ preview }: { preview: ImportPreview }) {
  const { t, i18n } = useLingui()
  return (
    <div role="alert" className="mt-4">
      <p className="flex items-center gap-2 font-semibold text-red-800">
        <CircleAlert aria-hidden className="size-5" />
        <Plural
          value={preview.errorCount}
          one="# error in the file: nothing was imported. Fix the file and choose it again."
          other="# errors in the file: nothing was imported. Fix the file and choose it again."
        />
      </p>
      <div className="mt-3 overflow-x-auto">
        <table aria-label={t`Errors in the file`} className="w-full text-sm">
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th className={CELL}>{t`Line`}</th>
              <th className={CELL}>{t`Column`}</th>
              <th className={CELL}>{t`Problem`}</th>
              <th className={CELL}>{t`Value`}</th>
            </tr>
          </thead>
          <tbody>
            {preview.errors.map((error) => (
              <tr key={`${error.line}-${error.column}-${error.code}`}>
                <td className={CELL}>{error.line}</td>
                <td className={CELL}>{error.column ? i18n._(CSV_COLUMN_LABELS[error.column]) : '—'}</td>
                <td className={CELL}>{i18n._(IMPORT_ERROR_LABELS[error.code])}</td>
                <td className={`${CELL} font-mono break-all`}>{error.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {preview.errorCount > preview.errors.length ? (
        <p className="mt-2 text-sm text-slate-700">
          <Trans>
            The first {preview.errors.length} of {preview.errorCount} errors are shown.
          </Trans>
        </p>
      ) : null}
    </div>
  )
}

function PreviewSample({ preview }: { preview: ImportPreview }) {
  const { t } = useLingui()
  // The home column shows when the file has one.
  const homes = preview.sample.some((keychain) => keychain.home)
  return (
    <div className="mt-4 overflow-x-auto">
      <table aria-label={t`Keychains to import`} className="w-full text-sm">
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            <th className={CELL}>{t`Keychain`}</th>
            <th className={CELL}>{t`Custodian`}</th>
            <th className={CELL}>{t`Keys`}</th>
            {homes ? <th className={CELL}>{t`Home hook`}</th> : null}
          </tr>
        </thead>
        <tbody>
          {preview.sample.map((keychain) => (
            <tr key={keychain.line}>
              <td className={CELL}>{keychain.name}</td>
              <td className={CELL}>{keychain.custodianEmail ?? '—'}</td>
              <td className={CELL}>
                {keychain.keys
                  .map((key) => (key.tagCode ? `${key.name} (${key.tagCode})` : key.name))
                  .join(', ') || '—'}
              </td>
              {homes ? <td className={CELL}>{keychain.home ?? '—'}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
      {preview.keychains > preview.sample.length ? (
        <p className="mt-2 text-sm text-slate-700">
          <Trans>
            The first {preview.sample.length} of {preview.keychains} keychains are shown.
          </Trans>
        </p>
      ) : null}
    </div>
  )
}

/** `/app/keychains/import`: choose a CSV file, see every row's errors, import it all at once. */
export function KeychainImportScreen({ organizationId }: { organizationId: string }) {
  const { t, i18n } = useLingui()
  const href = useHref()
  const ability = useAbility()
  const inputId = useId()
  const preview = usePreviewImport()
  const commit = useCommitImport(organizationId)
  const [loaded, setLoaded] = useState<Loaded | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [result, setResult] = useState<ImportResult | null>(null)

  if (!ability.can('create', 'keychain'))
    return <EmptyState title={<Trans>Your role does not allow importing keychains.</Trans>} />

  // A file that cannot be read as a whole: why, in the reader's words (the server's words for a new reason).
  const unreadable = (error: unknown) => {
    if (!(error instanceof ApiError) || error.code !== ErrorCode.csvInvalid) return null
    const why = csvFileProblem(error.details)
    const reason = why ? i18n._(why) : error.message
    return t`The file could not be read: ${reason}`
  }
  const readProblem = (error: unknown) =>
    unreadable(error) ?? errorMessage(error, i18n) ?? t`The file could not be checked.`

  const check = async (file: File) => {
    setProblem(null)
    setResult(null)
    setLoaded(null)
    if (file.size > IMPORT_MAX_CHARS) {
      setProblem(t`The file is too large (at most about 4 MB): split it into several files.`)
      return
    }
    const csv = await file.text()
    try {
      const answer = await preview.mutateAsync(csv)
      setLoaded({ name: file.name, csv, preview: answer, key: crypto.randomUUID() })
    } catch (error) {
      setProblem(readProblem(error))
    }
  }

  const importFile = async () => {
    if (!loaded) return
    try {
      setResult(await commit.mutateAsync({ csv: loaded.csv, key: loaded.key }))
      setLoaded(null)
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.importRowsInvalid) {
        // Something changed since the preview (a tag used, a name taken): show the rows as they are now.
        const again = await preview.mutateAsync(loaded.csv).catch(() => null)
        if (again) setLoaded({ ...loaded, preview: again, key: crypto.randomUUID() })
      }
      setProblem(unreadable(error) ?? errorMessage(error, i18n) ?? t`The keychains could not be imported.`)
    }
  }

  const ready = loaded && loaded.preview.errorCount === 0
  return (
    <>
      <PageHeader title={<Trans>Import keychains</Trans>}>
        <a href={keychainExportHref} download="keychains.csv" className={buttonClass('secondary')}>
          <Download aria-hidden className="size-4" />
          <Trans>Export CSV</Trans>
        </a>
      </PageHeader>
      <Card>
        <p className="text-slate-800">
          <Trans>
            A CSV file with one row per key, the keychain's name repeated on each of its keys' rows (a
            keychain without keys: one row with the key columns empty). Columns:
          </Trans>{' '}
          <code className="text-sm">{KEYCHAIN_CSV_COLUMNS.join(', ')}</code>.{' '}
          <Trans>
            The custodian must be a member; a TAG key names a free tag of the organization by its code. Commas
            or semicolons, as your spreadsheet saves it. The export writes this same format.
          </Trans>
        </p>
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <label htmlFor={inputId} className="font-medium text-slate-900">
            <Trans>CSV file</Trans>
          </label>
          <input
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => {
              const file = event.target.files?.[0]
              event.target.value = ''
              if (file) void check(file)
            }}
            className="text-sm"
          />
        </div>
        {preview.isPending ? (
          <p role="status" className="mt-4 text-slate-700">
            <Trans>Checking the file…</Trans>
          </p>
        ) : null}
        {problem ? (
          <p role="alert" className="mt-4 font-medium text-red-800">
            {problem}
          </p>
        ) : null}
        {loaded ? (
          <section aria-label={t`Preview of ${loaded.name}`} className="mt-4">
            <p className="text-slate-800">
              <Trans>
                {loaded.name}: {loaded.preview.rows} rows, {loaded.preview.keychains} keychains,{' '}
                {loaded.preview.keys} keys, {loaded.preview.tags} tags.
              </Trans>
            </p>
            {loaded.preview.errorCount > 0 ? (
              <PreviewErrors preview={loaded.preview} />
            ) : (
              <PreviewSample preview={loaded.preview} />
            )}
            {ready ? (
              <Button className="mt-4" onPress={() => void importFile()} isDisabled={commit.isPending}>
                <Upload aria-hidden className="size-4" />
                <Plural value={loaded.preview.keychains} one="Import # keychain" other="Import # keychains" />
              </Button>
            ) : null}
          </section>
        ) : null}
        {result ? (
          <div role="status" className="mt-4 flex flex-wrap items-center gap-3">
            <p className="flex items-center gap-2 font-semibold text-green-800">
              <CircleCheck aria-hidden className="size-5" />
              <Trans>
                Imported: {result.keychains} keychains, {result.keys} keys, {result.tags} tags.
              </Trans>
            </p>
            <AppLink href={href('/app/keychains')} className={buttonClass('secondary')}>
              <Trans>See the keychains</Trans>
            </AppLink>
          </div>
        ) : null}
      </Card>
    </>
  )
}
