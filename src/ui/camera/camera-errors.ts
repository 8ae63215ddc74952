import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

export type CameraProblem = 'denied' | 'noCamera' | 'insecure' | 'inUse' | 'constraints' | 'unsupported'

/** One message per camera failure, in the reader's language, saying what to do about it. */
export const CAMERA_PROBLEMS: Record<CameraProblem, MessageDescriptor> = {
  denied: msg`Camera access was denied. Allow the camera for this site in your browser settings, then try again.`,
  noCamera: msg`No camera was found on this device. Type the tag code below instead.`,
  insecure: msg`The camera only works on a secure (HTTPS) page. Open Trousseau through its https:// address.`,
  inUse: msg`The camera is in use by another app. Close it, then try again.`,
  constraints: msg`This camera cannot provide the requested video. Try another camera.`,
  unsupported: msg`This browser cannot use the camera for scanning. Type the tag code below, or use a recent browser.`,
}

/** Maps what getUserMedia or qr-scanner threw to a problem the user can act on. */
export function cameraProblemOf(
  error: unknown,
  context: { secure: boolean; hasMediaDevices: boolean },
): CameraProblem {
  if (!context.secure) return 'insecure'
  if (!context.hasMediaDevices) return 'unsupported'
  const name = error instanceof Error || error instanceof DOMException ? error.name : ''
  const text = typeof error === 'string' ? error : error instanceof Error ? error.message : ''
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError')
    return 'denied'
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || /camera not found/i.test(text))
    return 'noCamera'
  if (name === 'NotReadableError' || name === 'TrackStartError' || name === 'AbortError') return 'inUse'
  if (name === 'OverconstrainedError' || name === 'ConstraintNotSatisfiedError') return 'constraints'
  if (name === 'TypeError' || name === 'NotSupportedError') return 'unsupported'
  return 'unsupported'
}
