import { Trans, useLingui } from '@lingui/react/macro'
import { Camera, Flashlight, FlashlightOff, LoaderCircle, SwitchCamera } from 'lucide-react'
import { useRef } from 'react'
import { Button } from '../Button.tsx'
import { CAMERA_PROBLEMS } from './camera-errors.ts'
import { useQrCamera } from './useQrCamera.ts'

/**
 * The camera as a QR reader: a button to start it, its picture, why it could not start, the torch and the
 * choice of camera. `onRead` gets each decoded value once.
 */
export function CameraView({ onRead }: { onRead: (value: string) => void }) {
  const { t, i18n } = useLingui()
  const video = useRef<HTMLVideoElement>(null)
  const camera = useQrCamera(video, onRead)
  const { status, problem, cameras, hasTorch, torchOn } = camera.state
  return (
    <>
      {/* Idle, the box is a slim strip with its button: it takes no thumb's room from the field or a result. */}
      <div
        className={`relative w-full overflow-hidden rounded-lg bg-slate-900 dark:bg-black ${status === 'idle' || status === 'failed' ? 'h-24' : 'aspect-square sm:aspect-video'}`}
      >
        <video ref={video} className="h-full w-full object-cover" muted playsInline />
        {status !== 'running' ? (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-4 text-center text-white dark:text-slate-900">
            {status === 'starting' ? (
              <LoaderCircle aria-hidden className="size-8 animate-spin" />
            ) : (
              <Button onPress={() => void camera.start()}>
                <Camera aria-hidden className="size-4" />
                <Trans>Start the camera</Trans>
              </Button>
            )}
          </div>
        ) : null}
      </div>
      {problem ? (
        <p
          role="alert"
          data-camera-problem={problem}
          className="rounded-lg bg-amber-50 p-3 text-sm font-medium text-amber-950"
        >
          {i18n._(CAMERA_PROBLEMS[problem])}
        </p>
      ) : null}
      {status === 'running' ? (
        <div className="flex flex-wrap gap-2">
          {hasTorch ? (
            <Button variant="secondary" onPress={() => void camera.toggleTorch()} aria-pressed={torchOn}>
              {torchOn ? (
                <FlashlightOff aria-hidden className="size-4" />
              ) : (
                <Flashlight aria-hidden className="size-4" />
              )}
              {torchOn ? <Trans>Torch off</Trans> : <Trans>Torch on</Trans>}
            </Button>
          ) : null}
          {cameras.length > 1 ? (
            <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
              <SwitchCamera aria-hidden className="size-4" />
              <span className="sr-only">{t`Camera`}</span>
              <select
                className="min-h-11 rounded-lg border border-slate-300 bg-white px-2"
                value={camera.state.cameraId ?? ''}
                onChange={(event) => void camera.switchCamera(event.target.value)}
              >
                {camera.state.cameraId ? null : <option value="">{t`Back camera`}</option>}
                {cameras.map((device) => (
                  <option key={device.id} value={device.id}>
                    {device.label || device.id}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
        </div>
      ) : null}
    </>
  )
}
