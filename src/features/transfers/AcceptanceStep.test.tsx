import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type Acceptance, PHOTO_DATA_URL_PREFIX, PHOTO_MAX_BYTES } from '../../../contract/receipts.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import AcceptanceStep from './AcceptanceStep.tsx'
import { dataUrlBytes } from './photo-resize.ts'

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

/**
 * The browser's picture decoding and canvas, which jsdom lacks: each file decodes to the size its name says
 * ("4000x3000.jpg"), or fails ("broken.jpg"), when the test releases it; the canvas writes a JPEG of 0.2 byte a
 * pixel whose text names its size, so the test sees which size reached the acceptance.
 */
function fakeImaging() {
  const pending: Array<() => void> = []
  vi.stubGlobal(
    'createImageBitmap',
    vi.fn(
      (file: File) =>
        new Promise((resolve, reject) => {
          pending.push(() => {
            const size = /^(\d+)x(\d+)/.exec(file.name)
            if (!size) reject(new DOMException('The source image could not be decoded.', 'InvalidStateError'))
            else resolve({ width: Number(size[1]), height: Number(size[2]), close: () => undefined })
          })
        }),
    ),
  )
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () => ({ drawImage: () => undefined }) as unknown as CanvasRenderingContext2D,
  )
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockImplementation(function (this: HTMLCanvasElement) {
    const bytes = Buffer.alloc(Math.ceil(this.width * this.height * 0.2))
    bytes.write(`${this.width}x${this.height}`)
    return `${PHOTO_DATA_URL_PREFIX}${bytes.toString('base64')}`
  })
  return {
    /** Lets the oldest decoding still waiting finish. */
    decodeNext: async () => {
      await act(async () => {
        pending.shift()?.()
      })
    },
  }
}

/** The size a fake JPEG was made at (its first bytes). */
const sizeOf = (dataUrl: string) =>
  /^\d+x\d+/.exec(Buffer.from(dataUrl.slice(PHOTO_DATA_URL_PREFIX.length), 'base64').toString('latin1'))?.[0]

function step() {
  const accepted = vi.fn<(acceptance: Acceptance) => void>()
  const view = renderWithProviders(
    <AcceptanceStep recipientName="Rémi" pending={false} onAccept={accepted} onCancel={() => undefined} />,
  )
  return { accepted, ...view }
}

const file = (name: string) => new File([new Uint8Array(64)], name, { type: 'image/jpeg' })

async function choose(input: HTMLElement, ...files: File[]) {
  await act(async () => {
    fireEvent.change(input, { target: { files } })
  })
}

async function typeName(name: string, label = 'Your name') {
  await act(async () => {
    fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value: name } })
  })
}

async function accept(name = 'Accept and confirm the pickup') {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }))
  })
}

describe('the acceptance at the first pickup', () => {
  it('is accepted with a typed name alone, the photo being optional', async () => {
    await useLocale('en')
    const { accepted } = step()
    const button = screen.getByRole('button', { name: 'Accept and confirm the pickup' })
    expect(button.hasAttribute('disabled')).toBe(true)
    await typeName('  Rémi Terrain  ')
    expect(button.hasAttribute('disabled')).toBe(false)
    await accept()
    expect(accepted).toHaveBeenCalledWith({ typedName: 'Rémi Terrain' })
  })

  it('resizes a large photo on the device before it can be accepted, and sends it with the acceptance', async () => {
    await useLocale('en')
    const imaging = fakeImaging()
    const { accepted } = step()
    await typeName('Rémi Terrain')
    await choose(screen.getByLabelText('Photo of the keys (optional)'), file('4000x3000.jpg'))
    // While the photo is being prepared the acceptance waits for it.
    expect(screen.getByText('Preparing the photo…')).toBeTruthy()
    expect(
      screen.getByRole('button', { name: 'Accept and confirm the pickup' }).hasAttribute('disabled'),
    ).toBe(true)
    await imaging.decodeNext()
    expect(screen.queryByText('Preparing the photo…')).toBeNull()
    const preview = screen.getByRole('img', { name: 'The keys as handed over' }) as HTMLImageElement
    expect(sizeOf(preview.src)).toBe('1280x960')
    await accept()
    const sent = accepted.mock.calls[0]![0]
    expect(sent.typedName).toBe('Rémi Terrain')
    expect(sent.photo).toBe(preview.getAttribute('src'))
    expect(sizeOf(sent.photo!)).toBe('1280x960')
    expect(dataUrlBytes(sent.photo!)).toBeLessThanOrEqual(PHOTO_MAX_BYTES)
  })

  it('says when a photo cannot be read, and the acceptance goes without it', async () => {
    await useLocale('en')
    const imaging = fakeImaging()
    const { accepted } = step()
    await typeName('Rémi')
    await choose(screen.getByLabelText('Photo of the keys (optional)'), file('broken.jpg'))
    await imaging.decodeNext()
    expect(screen.getByRole('alert').textContent).toBe('This photo could not be read. Try another one.')
    expect(screen.queryByRole('img', { name: 'The keys as handed over' })).toBeNull()
    await accept()
    expect(accepted).toHaveBeenCalledWith({ typedName: 'Rémi' })
  })

  it('sends no photo once it is removed, and takes the same file again', async () => {
    await useLocale('en')
    const imaging = fakeImaging()
    const { accepted } = step()
    await typeName('Rémi')
    await choose(screen.getByLabelText('Photo of the keys (optional)'), file('2000x1000.jpg'))
    await imaging.decodeNext()
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Remove the photo' }))
    })
    expect(screen.queryByRole('img', { name: 'The keys as handed over' })).toBeNull()
    // The file field is empty again: choosing the same file is a change the browser reports.
    const field = screen.getByLabelText('Photo of the keys (optional)') as HTMLInputElement
    expect(field.files?.length ?? 0).toBe(0)
    await accept()
    expect(accepted).toHaveBeenLastCalledWith({ typedName: 'Rémi' })
    await choose(field, file('2000x1000.jpg'))
    await imaging.decodeNext()
    expect(
      sizeOf((screen.getByRole('img', { name: 'The keys as handed over' }) as HTMLImageElement).src),
    ).toBe('1280x640')
  })

  it('keeps the last photo chosen when an earlier one finishes later', async () => {
    await useLocale('en')
    vi.stubGlobal(
      'createImageBitmap',
      vi.fn(async (chosen: File) => {
        // The first photo is slow to decode, the second quick.
        if (chosen.name.startsWith('4000')) await new Promise((resolve) => setTimeout(resolve, 50))
        const [width, height] = chosen.name.split(/[x.]/).map(Number)
        return { width, height, close: () => undefined }
      }),
    )
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
      () => ({ drawImage: () => undefined }) as unknown as CanvasRenderingContext2D,
    )
    vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockImplementation(function (this: HTMLCanvasElement) {
      return `${PHOTO_DATA_URL_PREFIX}${Buffer.from(`${this.width}x${this.height}`).toString('base64')}`
    })
    const { accepted } = step()
    await typeName('Rémi')
    const field = screen.getByLabelText('Photo of the keys (optional)')
    await choose(field, file('4000x3000.jpg'))
    await choose(field, file('800x600.jpg'))
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 100))
    })
    const preview = screen.getByRole('img', { name: 'The keys as handed over' }) as HTMLImageElement
    expect(sizeOf(preview.src)).toBe('800x600')
    await accept()
    expect(sizeOf(accepted.mock.calls[0]![0].photo!)).toBe('800x600')
  })

  it('speaks French', async () => {
    await useLocale('fr')
    const imaging = fakeImaging()
    const { accepted } = step()
    expect(screen.getByRole('form', { name: 'Accepter le trousseau' })).toBeTruthy()
    await typeName('Rémi', 'Votre nom')
    await choose(screen.getByLabelText('Photo des clés (facultative)'), file('broken.jpg'))
    expect(screen.getByText('Préparation de la photo…')).toBeTruthy()
    await imaging.decodeNext()
    expect(screen.getByRole('alert').textContent).toBe(
      'Cette photo n’a pas pu être lue. Essayez-en une autre.',
    )
    await choose(screen.getByLabelText('Photo des clés (facultative)'), file('3000x4000.jpg'))
    await imaging.decodeNext()
    expect(screen.queryByRole('alert')).toBeNull()
    const preview = screen.getByRole('img', { name: 'Les clés telles que remises' }) as HTMLImageElement
    expect(sizeOf(preview.src)).toBe('960x1280')
    expect(screen.getByRole('button', { name: 'Retirer la photo' })).toBeTruthy()
    await accept('Accepter et confirmer le retrait')
    expect(sizeOf(accepted.mock.calls[0]![0].photo!)).toBe('960x1280')
  })
})
