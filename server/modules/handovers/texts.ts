import type { MessageDescriptor } from '../../i18n/translator.ts'

/** The handover receipt's PDF. */
export const handoverReceiptTexts = {
  title: /*i18n*/ { id: 'handover.receipt.title', message: 'Handover receipt' },
  statement: /*i18n*/ {
    id: 'handover.receipt.statement',
    message:
      '{giver} handed the keychain “{keychain}” of {organization} to {receiver}; both signed on their phones.',
  },
  keychain: /*i18n*/ { id: 'handover.receipt.keychain', message: 'Keychain' },
  giver: /*i18n*/ { id: 'handover.receipt.giver', message: 'Handed over by' },
  receiver: /*i18n*/ { id: 'handover.receipt.receiver', message: 'Received by' },
  offeredAt: /*i18n*/ { id: 'handover.receipt.offeredAt', message: 'Offered (giver’s phone)' },
  acceptedAt: /*i18n*/ { id: 'handover.receipt.acceptedAt', message: 'Accepted (receiver’s phone)' },
  appliedAt: /*i18n*/ { id: 'handover.receipt.appliedAt', message: 'Recorded by the server' },
  ledger: /*i18n*/ { id: 'handover.receipt.ledger', message: 'Activity log' },
  ledgerValue: /*i18n*/ { id: 'handover.receipt.ledgerValue', message: 'entry {seq}' },
  reference: /*i18n*/ { id: 'handover.receipt.reference', message: 'Handover {id}' },
  offer: /*i18n*/ { id: 'handover.receipt.offer', message: 'Offer, signed by the giver’s device' },
  acceptance: /*i18n*/ {
    id: 'handover.receipt.acceptance',
    message: 'Acceptance, signed by the receiver’s device',
  },
  server: /*i18n*/ { id: 'handover.receipt.server', message: 'Signed by the server (key {keyId})' },
  check: /*i18n*/ {
    id: 'handover.receipt.check',
    message:
      'Anyone can check this handover with its JSON receipt and the organization’s published keys: npm run verify-handover receipt.json',
  },
} satisfies Record<string, MessageDescriptor>
