import { Trans, useLingui } from '@lingui/react/macro'
import { type PointerEvent, useEffect, useRef } from 'react'
import { SIGNATURE_BOX } from '../../../contract/receipts.ts'
import { Button } from '../../ui/Button.tsx'

type Point = [number, number]

/** The strokes as SVG path data in the `SIGNATURE_BOX`, as the server takes it (`M x y L x y …`). */
export function signaturePath(strokes: readonly Point[][]): string | null {
  const parts = strokes
    .filter((stroke) => stroke.length > 0)
    .map((stroke) => {
      // A dot is a stroke of one point: drawn as a line of length zero.
      const points = stroke.length === 1 ? [stroke[0]!, stroke[0]!] : stroke
      return points.map(([x, y], n) => `${n === 0 ? 'M' : 'L'}${x} ${y}`).join(' ')
    })
  return parts.length ? parts.join(' ') : null
}

/**
 * A drawn signature with the finger, a pen or the mouse (pointer events, captured so a stroke leaving the box
 * goes on), and a button that clears it. The typed name beside it is the keyboard's way to accept.
 */
export function SignaturePad({ onChange }: { onChange: (path: string | null) => void }) {
  const { t } = useLingui()
  const canvas = useRef<HTMLCanvasElement>(null)
  const strokes = useRef<Point[][]>([])
  const drawing = useRef(false)

  useEffect(() => {
    const context = canvas.current?.getContext('2d')
    if (!context) return
    context.lineWidth = 3
    context.lineCap = 'round'
    context.lineJoin = 'round'
    context.strokeStyle = '#0f172a'
  }, [])

  const pointOf = (event: PointerEvent<HTMLCanvasElement>): Point => {
    const box = event.currentTarget.getBoundingClientRect()
    const scale = (value: number, size: number, max: number) =>
      Math.round(Math.min(max, Math.max(0, size > 0 ? (value / size) * max : 0)))
    return [
      scale(event.clientX - box.left, box.width, SIGNATURE_BOX.width),
      scale(event.clientY - box.top, box.height, SIGNATURE_BOX.height),
    ]
  }

  const line = (from: Point, to: Point) => {
    const context = canvas.current?.getContext('2d')
    if (!context) return
    context.beginPath()
    context.moveTo(...from)
    context.lineTo(...to)
    context.stroke()
  }

  const start = (event: PointerEvent<HTMLCanvasElement>) => {
    event.preventDefault()
    event.currentTarget.setPointerCapture?.(event.pointerId)
    drawing.current = true
    const point = pointOf(event)
    strokes.current.push([point])
    line(point, point)
  }

  const move = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return
    const stroke = strokes.current.at(-1)!
    const last = stroke.at(-1)!
    const point = pointOf(event)
    if (point[0] === last[0] && point[1] === last[1]) return
    stroke.push(point)
    line(last, point)
  }

  const end = () => {
    if (!drawing.current) return
    drawing.current = false
    onChange(signaturePath(strokes.current))
  }

  const clear = () => {
    strokes.current = []
    canvas.current?.getContext('2d')?.clearRect(0, 0, SIGNATURE_BOX.width, SIGNATURE_BOX.height)
    onChange(null)
  }

  return (
    <div className="flex flex-col gap-2">
      <canvas
        ref={canvas}
        width={SIGNATURE_BOX.width}
        height={SIGNATURE_BOX.height}
        role="img"
        aria-label={t`Signature pad: sign with your finger, a pen or the mouse`}
        data-testid="signature-pad"
        className="aspect-[3/1] w-full touch-none rounded-lg border border-slate-300 bg-white dark:bg-[#fff]"
        onPointerDown={start}
        onPointerMove={move}
        onPointerUp={end}
        onPointerCancel={end}
        onLostPointerCapture={end}
      />
      <Button variant="secondary" onPress={clear} className="self-start">
        <Trans>Clear the signature</Trans>
      </Button>
    </div>
  )
}
