import type QrScanner from 'qr-scanner'
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react'
import { type CameraProblem, cameraProblemOf } from './camera-errors.ts'

export type CameraState = {
  status: 'idle' | 'starting' | 'running' | 'failed'
  problem: CameraProblem | null
  cameras: QrScanner.Camera[]
  cameraId: string | null
  hasTorch: boolean
  torchOn: boolean
}

const initial: CameraState = {
  status: 'idle',
  problem: null,
  cameras: [],
  cameraId: null,
  hasTorch: false,
  torchOn: false,
}

/**
 * Drives the camera with qr-scanner, loaded only when the camera starts (it stays off the scan page's first
 * paint). `onRead` gets each decoded value once; the same value is ignored for a moment after a read.
 */
export function useQrCamera(video: RefObject<HTMLVideoElement | null>, onRead: (value: string) => void) {
  const [state, setState] = useState<CameraState>(initial)
  const scanner = useRef<QrScanner | null>(null)
  const lastRead = useRef<{ value: string; at: number } | null>(null)
  const onReadRef = useRef(onRead)
  onReadRef.current = onRead

  const fail = useCallback((error: unknown) => {
    const problem = cameraProblemOf(error, {
      secure: window.isSecureContext,
      hasMediaDevices: Boolean(navigator.mediaDevices?.getUserMedia),
    })
    setState((current) => ({ ...current, status: 'failed', problem }))
  }, [])

  const start = useCallback(async () => {
    if (!video.current) return
    if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia) {
      fail(undefined)
      return
    }
    setState((current) => ({ ...current, status: 'starting', problem: null }))
    try {
      const { default: QrScannerClass } = await import('qr-scanner')
      scanner.current ??= new QrScannerClass(
        video.current,
        (result) => {
          const now = Date.now()
          if (lastRead.current && lastRead.current.value === result.data && now - lastRead.current.at < 3000)
            return
          lastRead.current = { value: result.data, at: now }
          onReadRef.current(result.data)
        },
        {
          returnDetailedScanResult: true,
          preferredCamera: 'environment',
          highlightScanRegion: true,
          maxScansPerSecond: 10,
        },
      )
      await scanner.current.start()
      const [cameras, hasTorch] = await Promise.all([
        QrScannerClass.listCameras(true).catch(() => []),
        scanner.current.hasFlash().catch(() => false),
      ])
      setState((current) => ({ ...current, status: 'running', cameras, hasTorch, torchOn: false }))
    } catch (error) {
      fail(error)
    }
  }, [video, fail])

  const toggleTorch = useCallback(async () => {
    if (!scanner.current) return
    await scanner.current.toggleFlash().catch(() => undefined)
    setState((current) => ({ ...current, torchOn: scanner.current?.isFlashOn() ?? false }))
  }, [])

  const switchCamera = useCallback(
    async (cameraId: string) => {
      if (!scanner.current) return
      try {
        await scanner.current.setCamera(cameraId)
        const hasTorch = await scanner.current.hasFlash().catch(() => false)
        setState((current) => ({ ...current, cameraId, hasTorch, torchOn: false }))
      } catch (error) {
        fail(error)
      }
    },
    [fail],
  )

  useEffect(
    () => () => {
      scanner.current?.destroy()
      scanner.current = null
    },
    [],
  )

  return { state, start, toggleTorch, switchCamera }
}
