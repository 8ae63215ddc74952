import { encode } from 'uqr'

/** The QR code of `value` as an SVG of dark modules on a light background, readable by any phone camera. */
export function QrCode({
  value,
  label,
  size = 192,
  foreground = '#000000',
  background = '#ffffff',
}: {
  value: string
  label: string
  size?: number
  foreground?: string
  background?: string
}) {
  const { data } = encode(value, { ecc: 'M', border: 2 })
  const modules = data.length
  let path = ''
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`
    })
  })
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shapeRendering="crispEdges"
      data-qr-value={value}
    >
      <rect width={modules} height={modules} fill={background} />
      <path d={path} fill={foreground} />
    </svg>
  )
}
