import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { type FormApi, useForm, useStore } from './form.tsx'

type Values = { name: string; note: string }
let api: FormApi<Values> | null = null

function Example({
  onSubmit,
  initialName = '',
  withNote = true,
}: {
  onSubmit: (value: Values) => Promise<void> | void
  initialName?: string
  withNote?: boolean
}) {
  const form = useForm({
    defaultValues: { name: initialName, note: '' } as Values,
    onSubmit: async ({ value }) => onSubmit(value),
  })
  api = form
  const dirty = useStore(form.store, (state) => state.isDirty)
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        void form.handleSubmit()
      }}
    >
      <form.Field name="name" validators={{ onSubmit: ({ value }) => (value ? undefined : 'Name required') }}>
        {(field) => (
          <label>
            Name
            <input
              aria-label="Name"
              value={field.state.value}
              onChange={(event) => field.handleChange(event.target.value)}
              onBlur={field.handleBlur}
            />
            <span data-testid="name-error">{field.state.meta.errors[0] ?? ''}</span>
          </label>
        )}
      </form.Field>
      {withNote ? (
        <form.Field
          name="note"
          validators={{ onChange: ({ value }) => (value.length > 3 ? 'Too long' : undefined) }}
        >
          {(field) => (
            <label>
              Note
              <input
                aria-label="Note"
                value={field.state.value}
                onChange={(event) => field.handleChange(event.target.value)}
              />
              <span data-testid="note-error">{field.state.meta.errors[0] ?? ''}</span>
            </label>
          )}
        </form.Field>
      ) : null}
      <form.Subscribe selector={(state) => [state.isSubmitting, state.canSubmit] as const}>
        {([submitting, canSubmit]) => (
          <button type="submit" data-can-submit={String(canSubmit)}>
            {submitting ? 'Saving' : 'Save'}
          </button>
        )}
      </form.Subscribe>
      <output data-testid="dirty">{dirty ? 'dirty' : 'clean'}</output>
    </form>
  )
}

const submit = async () => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button'))
  })
}

describe('useForm', () => {
  it('shows a submit error until the field changes, and submits valid values', async () => {
    const onSubmit = vi.fn()
    render(<Example onSubmit={onSubmit} />)
    await submit()
    expect(screen.getByTestId('name-error').textContent).toBe('Name required')
    expect(onSubmit).not.toHaveBeenCalled()
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ann' } })
    expect(screen.getByTestId('name-error').textContent).toBe('')
    expect(screen.getByTestId('dirty').textContent).toBe('dirty')
    await submit()
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Ann', note: '' })
  })

  it('clears a submit error on blur, as TanStack Form did', async () => {
    render(<Example onSubmit={vi.fn()} />)
    await submit()
    expect(screen.getByTestId('name-error').textContent).toBe('Name required')
    fireEvent.blur(screen.getByLabelText('Name'))
    expect(screen.getByTestId('name-error').textContent).toBe('')
  })

  it('validates on change and blocks the first submit while a field is invalid', async () => {
    const onSubmit = vi.fn()
    render(<Example onSubmit={onSubmit} initialName="Ann" />)
    fireEvent.change(screen.getByLabelText('Note'), { target: { value: 'too long' } })
    expect(screen.getByTestId('note-error').textContent).toBe('Too long')
    expect(screen.getByRole('button').dataset.canSubmit).toBe('false')
    await submit()
    expect(onSubmit).not.toHaveBeenCalled()
    fireEvent.change(screen.getByLabelText('Note'), { target: { value: 'ok' } })
    expect(screen.getByRole('button').dataset.canSubmit).toBe('true')
    await submit()
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Ann', note: 'ok' })
  })

  it('does not validate a field that is not mounted', async () => {
    const onSubmit = vi.fn()
    const { rerender } = render(<Example onSubmit={onSubmit} initialName="Ann" />)
    fireEvent.change(screen.getByLabelText('Note'), { target: { value: 'too long' } })
    rerender(<Example onSubmit={onSubmit} initialName="Ann" withNote={false} />)
    await submit()
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Ann', note: 'too long' })
  })

  it('shows "Saving" while submitting; reset and new default values', async () => {
    let finish = () => {}
    const onSubmit = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)))
    const { rerender } = render(<Example onSubmit={onSubmit} initialName="Ann" />)
    // Untouched: new default values replace the values; touched, they do not.
    rerender(<Example onSubmit={onSubmit} initialName="Bob" />)
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Bob')
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Cy' } })
    rerender(<Example onSubmit={onSubmit} initialName="Dee" />)
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Cy')
    await submit()
    expect(screen.getByRole('button').textContent).toBe('Saving')
    await act(async () => finish())
    expect(screen.getByRole('button').textContent).toBe('Save')
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Cy', note: '' })
    // A reset makes the form untouched: the component's default values apply again at its next render.
    act(() => api?.reset({ name: 'Eve', note: '' }))
    rerender(<Example onSubmit={onSubmit} initialName="Eve" />)
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Eve')
    expect(screen.getByTestId('dirty').textContent).toBe('clean')
    act(() => api?.setFieldValue('note', 'x'))
    expect(api?.getFieldValue('note')).toBe('x')
  })
})
