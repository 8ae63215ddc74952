import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { ErrorCode } from '../../../contract/errors.ts'
import {
  FOUND_REPORT_REPLY_MAX_LENGTH,
  FOUND_REPORT_STATUSES,
  type FoundReportDetail,
  type FoundReportStatus,
} from '../../../contract/found-reports.ts'
import { foundReportQuery, useChangeFoundReportStatus, useReplyToFinder } from '../../api/found-reports.ts'
import { useAbility } from '../../lib/ability.tsx'
import { ApiError } from '../../lib/api.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { formatDateTime } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Badge } from '../../ui/Badge.tsx'
import { Button } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { SelectField } from '../../ui/SelectField.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { FOUND_REPORT_STATUS_LABELS, FOUND_REPORT_STATUS_TONES } from './labels.ts'

function StatusForm({ organizationId, report }: { organizationId: string; report: FoundReportDetail }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const failed = useFailureToast()
  const change = useChangeFoundReportStatus(organizationId, report.id)
  const [status, setStatus] = useState<FoundReportStatus>(report.status)
  const changedAt = report.statusChangedAt ? formatDateTime(report.statusChangedAt, locale) : ''
  const changedBy = report.statusChangedBy ? personName(report.statusChangedBy) : ''
  return (
    <form
      noValidate
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault()
        change.mutate(status, {
          onSuccess: () =>
            toasts.add({ severity: 'success', summary: t`The status has been changed.`, life: 4000 }),
          onError: (error) => failed(t`The status could not be changed.`, error),
        })
      }}
    >
      <div className="min-w-48">
        <SelectField
          label={t`Status`}
          name="status"
          value={status}
          onChange={(value) => setStatus(value as FoundReportStatus)}
          options={FOUND_REPORT_STATUSES.map((each) => ({
            value: each,
            label: i18n._(FOUND_REPORT_STATUS_LABELS[each]),
          }))}
        />
      </div>
      <Button type="submit" variant="secondary" isDisabled={change.isPending || status === report.status}>
        <Trans>Change the status</Trans>
      </Button>
      {report.statusChangedAt ? (
        <p className="w-full text-sm text-slate-600">
          {changedBy ? (
            <Trans>
              Last changed by {changedBy} on {changedAt}.
            </Trans>
          ) : (
            <Trans>Last changed on {changedAt}.</Trans>
          )}
        </p>
      ) : null}
    </form>
  )
}

/** Why a reply was refused, in the reader's language: the reply's own refusals, else what the code means. */
function useReplyRefusal(): (failure: unknown) => string | undefined {
  const { t, i18n } = useLingui()
  return (failure) => {
    const code = failure instanceof ApiError ? failure.code : undefined
    if (code === ErrorCode.rateLimited) return t`Too many replies this hour. Please try again later.`
    if (code === ErrorCode.repliesExhausted) return t`This report has had all its replies.`
    if (code === ErrorCode.finderUnreachable)
      return t`The finder left no e-mail address, so no reply can be sent from here. Use the contact they left, then mark the report as contacted.`
    return errorMessage(failure, i18n)
  }
}

function ReplyForm({ organizationId, report }: { organizationId: string; report: FoundReportDetail }) {
  const { t } = useLingui()
  const refusal = useReplyRefusal()
  const reply = useReplyToFinder(organizationId, report.id)
  const [message, setMessage] = useState('')
  const [error, setError] = useState<string | undefined>()
  const left = report.repliesLeft
  const language = report.locale === 'en' ? t`English` : t`French`
  if (!report.canReply)
    return (
      <p className="text-sm text-slate-700">
        <Trans>
          The finder left no e-mail address, so no reply can be sent from here. Use the contact they left,
          then mark the report as contacted.
        </Trans>
      </p>
    )
  if (left === 0)
    return (
      <p className="text-sm text-slate-700">
        <Trans>This report has had all its replies. Mark it as resolved once the keys are back.</Trans>
      </p>
    )
  return (
    <form
      noValidate
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault()
        if (message.trim() === '') {
          setError(t`Write your reply.`)
          return
        }
        // The field stops typing at the limit; a longer text put in otherwise (pasted by a script, an
        // autofill) is refused here rather than by the server, with the field's own message.
        if (message.trim().length > FOUND_REPORT_REPLY_MAX_LENGTH) {
          const max = FOUND_REPORT_REPLY_MAX_LENGTH
          setError(t`At most ${max} characters.`)
          return
        }
        setError(undefined)
        reply.mutate(message, {
          onSuccess: () => {
            setMessage('')
            toasts.add({
              severity: 'success',
              summary: t`Your reply has been sent to the finder.`,
              life: 5000,
            })
          },
          onError: (failure) => {
            const detail = refusal(failure)
            toasts.add({
              severity: 'error',
              summary: t`Your reply could not be sent.`,
              ...(detail ? { detail } : {}),
              life: 7000,
            })
          },
        })
      }}
    >
      <TextField
        label={t`Reply to the finder`}
        name="message"
        rows={5}
        value={message}
        onChange={setMessage}
        maxLength={FOUND_REPORT_REPLY_MAX_LENGTH}
        error={error}
        description={t`Trousseau e-mails it to the finder (in ${language}) from its own address: neither of you sees the other's address. ${left} replies left.`}
        isDisabled={reply.isPending}
      />
      <Button type="submit" className="self-start" isDisabled={reply.isPending}>
        {reply.isPending ? <Trans>Sending…</Trans> : <Trans>Send the reply</Trans>}
      </Button>
    </form>
  )
}

function Replies({ report }: { report: FoundReportDetail }) {
  const { t } = useLingui()
  const locale = useLocale()
  if (report.replyList.length === 0) return null
  return (
    <ul className="flex flex-col gap-3" aria-label={t`Replies`}>
      {report.replyList.map((reply) => {
        const author = reply.author ? personName(reply.author) : null
        const when = formatDateTime(reply.createdAt, locale)
        return (
          <li key={reply.id} className="rounded-lg bg-slate-50 p-3">
            <p className="text-xs text-slate-600">
              {author ? (
                <Trans>
                  {author}, {when}
                </Trans>
              ) : (
                when
              )}
            </p>
            <p className="break-words whitespace-pre-wrap text-slate-900">{reply.message}</p>
          </li>
        )
      })}
    </ul>
  )
}

/** `/app/found-reports/{id}`: a finder's report, its status and the replies mailed to the finder. */
export function FoundReportDetailScreen({ organizationId, id }: { organizationId: string; id: string }) {
  const { i18n } = useLingui()
  const locale = useLocale()
  const href = useHref()
  const canUpdate = useAbility().can('update', 'found_report')
  const { data: report, isPending, isError, error, refetch } = useQuery(foundReportQuery(organizationId, id))
  if (isPending) return <LoadingState label={<Trans context="found keys">Loading the report…</Trans>} />
  if (isError)
    return (
      <ErrorState
        message={<Trans context="found keys">The report could not be loaded.</Trans>}
        onRetry={() => void refetch()}
        error={error}
      />
    )
  const when = formatDateTime(report.createdAt, locale)
  return (
    <>
      <PageHeader title={<Trans>Found keys: tag {report.tag.code}</Trans>}>
        <Badge tone={FOUND_REPORT_STATUS_TONES[report.status]}>
          {i18n._(FOUND_REPORT_STATUS_LABELS[report.status])}
        </Badge>
      </PageHeader>
      <div className="grid max-w-3xl gap-6">
        <Card>
          <h2 className="mb-2 font-semibold text-slate-900">
            <Trans>The finder wrote, on {when}:</Trans>
          </h2>
          <p className="mb-4 break-words whitespace-pre-wrap text-slate-900">{report.message}</p>
          <dl className="grid gap-2 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
            <dt className="font-medium text-slate-700">
              <Trans>How to reach them</Trans>
            </dt>
            <dd className="break-words text-slate-900">{report.contact}</dd>
            <dt className="font-medium text-slate-700">
              <Trans>Keychain</Trans>
            </dt>
            <dd className="text-slate-900">
              {report.keychain ? (
                <AppLink href={href(`/app/keychains/${report.keychain.id}`)}>{report.keychain.name}</AppLink>
              ) : (
                <Trans>The tag is on no keychain.</Trans>
              )}
            </dd>
          </dl>
          {report.canReply ? (
            <p className="mt-3 text-sm text-slate-600">
              <Trans>An e-mail address shown as …@… stays private: reply below.</Trans>
            </p>
          ) : null}
        </Card>
        {canUpdate ? (
          <Card>
            <StatusForm
              key={`${report.status}:${report.statusChangedAt}`}
              organizationId={organizationId}
              report={report}
            />
          </Card>
        ) : null}
        <Card>
          <h2 className="mb-3 font-semibold text-slate-900">
            <Trans>Replies</Trans>
          </h2>
          <div className="flex flex-col gap-4">
            <Replies report={report} />
            {canUpdate ? <ReplyForm organizationId={organizationId} report={report} /> : null}
          </div>
        </Card>
      </div>
    </>
  )
}
