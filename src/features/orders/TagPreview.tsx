import { useLingui } from '@lingui/react/macro'
import { QrCode } from '../../ui/QrCode.tsx'

/** The printed tag as it will look: the QR and the code on the chosen colours. */
export function TagPreview({
  code,
  name,
  foreground,
  background,
}: {
  code: string
  name: string
  foreground: string
  background: string
}) {
  const { t } = useLingui()
  const hex = /^#[0-9a-f]{6}$/i
  const fg = hex.test(foreground) ? foreground : '#000000'
  const bg = hex.test(background) ? background : '#ffffff'
  return (
    <figure
      aria-label={t`Preview of the printed tag`}
      className="flex w-48 flex-col items-center gap-2 rounded-2xl p-4 shadow-md ring-1 ring-slate-300"
      style={{ backgroundColor: bg, color: fg }}
    >
      <QrCode
        value={`https://trousseau.example/tags/${code.toLowerCase()}`}
        label={t`QR code of tag ${code}`}
        size={140}
        foreground={fg}
        background={bg}
      />
      <figcaption className="text-center">
        <span className="block font-mono text-lg font-bold">{code}</span>
        <span className="block max-w-40 truncate text-sm">{name || ' '}</span>
      </figcaption>
    </figure>
  )
}
