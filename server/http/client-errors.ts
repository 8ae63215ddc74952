import type { Duplex } from 'node:stream'
import { ErrorCode } from '../../contract/errors.ts'

const ANSWERS: Record<string, { status: number; reason: string; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    code: ErrorCode.badRequest,
    message: 'The request headers are too large.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    code: ErrorCode.badRequest,
    message: 'The request took too long to arrive.',
  },
}
const MALFORMED = {
  status: 400,
  reason: 'Bad Request',
  code: ErrorCode.badRequest,
  message: 'Malformed HTTP request.',
}

/**
 * The answer to a request Node's HTTP parser refuses before the app sees it (headers too large, malformed,
 * too slow): the API's JSON error shape instead of Node's bare status line. A connection the client already
 * closed, or one with an answer under way, is just closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const answering = (socket as Duplex & { _httpMessage?: unknown })._httpMessage
  if (error.code === 'ECONNRESET' || !socket.writable || answering) {
    socket.destroy()
    return
  }
  const answer = (error.code && ANSWERS[error.code]) || MALFORMED
  const body = JSON.stringify({ error: { code: answer.code, message: answer.message } })
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
