// A receipt row as the PDF tests give it to `renderReceiptPdf`: two keys, both parties, a signature; and JPEG
// headers made by hand for the photo checks.
import type { TransferReceiptRow } from '../../server/db/schema.ts'
import type { JpegFrame } from '../../server/modules/receipts/photo.ts'

/** A real 1 × 1 baseline JPEG (125 bytes). */
export const TINY_JPEG =
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA='
/**
 * A JPEG of a start marker, a frame header as given (default: baseline, 8-bit, 1 × 1, three components) and an end
 * marker: no picture in it, which is all the photo checks and pdf-lib's embedding read.
 */
export function jpegWith(changes: Partial<JpegFrame> = {}): Uint8Array {
  const { marker, precision, width, height, components } = {
    marker: 0xc0,
    precision: 8,
    width: 1,
    height: 1,
    components: 3,
    ...changes,
  }
  const specs = Array.from({ length: components }, (_, n) => [n + 1, 0x11, 0x00]).flat()
  const length = 8 + 3 * components
  return new Uint8Array([
    ...[0xff, 0xd8],
    ...[
      0xff,
      marker,
      length >> 8,
      length & 0xff,
      precision,
      height >> 8,
      height & 0xff,
      width >> 8,
      width & 0xff,
    ],
    ...[components, ...specs],
    ...[0xff, 0xd9],
  ])
}
export const SIGNATURE = 'M10 150 L40 60 L80 140 L120 50 M150 100 L300 100'
export const ID = '0b9f6a52-3c1d-4e8f-9a7b-2d4c6e8f0a1b'

export const receipt = (changes: Partial<TransferReceiptRow> = {}): TransferReceiptRow => ({
  id: ID,
  organizationId: '00000000-0000-4000-8000-000000000001',
  transferId: '00000000-0000-4000-8000-000000000002',
  pickupId: '00000000-0000-4000-8000-000000000003',
  recipientId: '00000000-0000-4000-8000-000000000004',
  handedOverById: '00000000-0000-4000-8000-000000000005',
  details: {
    organization: { id: '00000000-0000-4000-8000-000000000001', name: 'Agence' },
    keychain: { id: '00000000-0000-4000-8000-000000000006', name: 'Cave' },
    keys: [
      { name: 'Porte', type: 'TAG' },
      { name: 'Boîte', type: 'KEY' },
    ],
    fromDate: '2030-01-15',
    toDate: '2030-01-17',
    recipient: { id: '00000000-0000-4000-8000-000000000004', name: 'Zoé Martin', email: 'zoe@example.test' },
    handedOverBy: {
      id: '00000000-0000-4000-8000-000000000005',
      name: 'Hélène Dupont',
      email: 'helene@example.test',
    },
  },
  typedName: null,
  signature: SIGNATURE,
  photo: null,
  locale: 'en',
  acceptedAt: new Date('2030-01-15T08:00:00.000Z'),
  clientTime: null,
  serverTime: new Date('2030-01-15T08:30:00.000Z'),
  fromQueue: false,
  ...changes,
})
