import { and, eq, inArray } from 'drizzle-orm'
import type { Locale } from '../../../contract/locale.ts'
import type { Db } from '../../db/client.ts'
import { memberships, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { type MessageDescriptor, translator } from '../../i18n/translator.ts'
import type { NewJob } from '../../jobs/queue.ts'
import { type PersonalNotice, personalNoticeJobs } from '../notices/deliver.ts'

/** The push texts of a handover decided; English as the catalog's source, French in `locales/fr/server.po`. */
export const handoverPushTexts = {
  appliedTitle: /*i18n*/ { id: 'push.handover.applied.title', message: 'Handover recorded: “{keychain}”' },
  appliedBody: /*i18n*/ {
    id: 'push.handover.applied.body',
    message: '{giver} handed the keychain to {receiver}; the server has it.',
  },
  refusedTitle: /*i18n*/ { id: 'push.handover.refused.title', message: 'Handover refused: “{keychain}”' },
  refusedBody: /*i18n*/ {
    id: 'push.handover.refused.body',
    message: 'The handover from {giver} to {receiver} was not recorded. Open it to see why and what to do.',
  },
} satisfies Record<string, MessageDescriptor>

type Handed = {
  id: string
  organizationId: string
  keychainName: string
  giverId: string
  giverName: string
  receiverId: string
  receiverName: string
  applied: boolean
  /** Who sent it: their phone knows already. */
  sentById: string
}

/**
 * A handover the server decided, told by push (`handover` notices): applied, to the person whose phone has not
 * sent it yet; refused, to both, since each phone showed it done. Written in the decision's transaction.
 */
export async function handoverNoticeJobs(
  tx: Db,
  deps: Pick<AppDeps, 'config'>,
  handed: Handed,
  now: Date,
): Promise<NewJob[]> {
  const told = [handed.giverId, handed.receiverId].filter((id) => !handed.applied || id !== handed.sentById)
  // Only people still active in the organization are told; one statement for the one or two of them.
  const readers = await tx
    .select({ id: users.id, locale: users.locale })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.organizationId, handed.organizationId),
        eq(memberships.status, 'ACTIVE'),
        inArray(users.id, told),
      ),
    )
  const notices: PersonalNotice[] = readers.map((reader) => {
    const message = pushText(reader.locale, handed)
    return {
      userId: reader.id,
      kind: 'handover',
      subject: `handover:${handed.id}:${handed.applied ? 'applied' : 'refused'}`,
      mail: null,
      push: {
        ...message,
        url: `${reader.locale === 'en' ? '/en' : ''}/app/handovers/${handed.id}`,
        tag: `handover:${handed.id}`,
      },
    }
  })
  return personalNoticeJobs(tx, notices, {
    now,
    organizationId: handed.organizationId,
    publicUrl: deps.config.publicUrl,
  })
}

function pushText(locale: Locale, handed: Handed): { title: string; body: string } {
  const i18n = translator(locale)
  const values = { keychain: handed.keychainName, giver: handed.giverName, receiver: handed.receiverName }
  return handed.applied
    ? {
        title: i18n._({ ...handoverPushTexts.appliedTitle, values }),
        body: i18n._({ ...handoverPushTexts.appliedBody, values }),
      }
    : {
        title: i18n._({ ...handoverPushTexts.refusedTitle, values }),
        body: i18n._({ ...handoverPushTexts.refusedBody, values }),
      }
}
