// A small form state for the app's forms, with the part of TanStack Form's API they use (`useForm`,
// `form.Field`, `form.Subscribe`, `useStore`), and its behaviour: field validators run on change, on blur and
// on submit (a submit runs all three); an on-submit error stays until the field's next change or blur that
// finds no error; a field that is not mounted is not validated and loses its errors. TanStack Form cost 14 KiB
// gzipped on every page with a form (issue 12, docs/decisions.md).
import { type ReactNode, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react'

type Values = Record<string, unknown>
type Cause = 'onChange' | 'onBlur' | 'onSubmit'
const CAUSES: Cause[] = ['onChange', 'onBlur', 'onSubmit']

export type FieldMeta = {
  errorMap: Partial<Record<Cause, string>>
  errors: string[]
  isTouched: boolean
  isBlurred: boolean
  isDirty: boolean
}
export type FormState<V extends Values> = {
  values: V
  fieldMeta: Partial<Record<keyof V, FieldMeta>>
  submissionAttempts: number
  isSubmitting: boolean
  isSubmitted: boolean
  isSubmitSuccessful: boolean
  /** Some field was changed since the last reset (even if back to its first value). */
  isDirty: boolean
  isTouched: boolean
  /** No mounted field has an error. */
  isValid: boolean
  canSubmit: boolean
}

export type FormStore<S> = { get: () => S; subscribe: (listener: () => void) => () => void }

type Validator<V extends Values, K extends keyof V> = (input: {
  value: V[K]
  fieldApi: FieldApi<V, K>
}) => string | undefined
export type FieldValidators<V extends Values, K extends keyof V> = Partial<Record<Cause, Validator<V, K>>>

export type FieldApi<V extends Values, K extends keyof V> = {
  name: K
  form: FormApi<V>
  state: { value: V[K]; meta: FieldMeta }
  handleChange: (value: V[K]) => void
  handleBlur: () => void
}

export type FormApi<V extends Values> = {
  store: FormStore<FormState<V>>
  handleSubmit: () => Promise<void>
  reset: (values?: V) => void
  getFieldValue: <K extends keyof V>(name: K) => V[K]
  setFieldValue: <K extends keyof V>(name: K, value: V[K]) => void
  Field: <K extends keyof V>(props: {
    name: K
    validators?: FieldValidators<V, K>
    children: (field: FieldApi<V, K>) => ReactNode
  }) => ReactNode
  Subscribe: <T>(props: {
    selector: (state: FormState<V>) => T
    children: (selected: T) => ReactNode
  }) => ReactNode
}

type FormOptions<V extends Values> = {
  defaultValues: V
  onSubmit?: (input: { value: V; formApi: FormApi<V> }) => unknown
}

const blankMeta = (): FieldMeta => ({
  errorMap: {},
  errors: [],
  isTouched: false,
  isBlurred: false,
  isDirty: false,
})

function shallowEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every((key) => Object.is((a as Values)[key], (b as Values)[key]))
}

/** The part of a form's state a component reads; it renders again only when that part changes (shallowly). */
export function useStore<S, T>(store: FormStore<S>, selector: (state: S) => T): T {
  const cache = useRef<{ state: S; value: T } | null>(null)
  const read = () => {
    const state = store.get()
    const last = cache.current
    if (last?.state === state) return last.value
    const value = selector(state)
    cache.current = { state, value: last && shallowEqual(last.value, value) ? last.value : value }
    return cache.current.value
  }
  return useSyncExternalStore(store.subscribe, read, read)
}

function createForm<V extends Values>(options: { current: FormOptions<V> }): FormApi<V> {
  let defaults = options.current.defaultValues
  const listeners = new Set<() => void>()
  const validators: Partial<Record<keyof V, FieldValidators<V, keyof V>>> = {}
  const mounted = new Set<keyof V>()
  const initial = (values: V): FormState<V> =>
    derive({
      values,
      fieldMeta: {},
      submissionAttempts: 0,
      isSubmitting: false,
      isSubmitted: false,
      isSubmitSuccessful: false,
    } as FormState<V>)
  const derive = (state: FormState<V>): FormState<V> => {
    const metas = Object.values(state.fieldMeta) as FieldMeta[]
    const isTouched = metas.some((meta) => meta.isTouched)
    const isValid = metas.every((meta) => meta.errors.length === 0)
    return {
      ...state,
      isDirty: metas.some((meta) => meta.isDirty),
      isTouched,
      isValid,
      canSubmit: (state.submissionAttempts === 0 && !isTouched) || (!state.isSubmitting && isValid),
    }
  }
  let state = initial(defaults)
  const set = (change: Partial<FormState<V>>) => {
    state = derive({ ...state, ...change })
    for (const listener of listeners) listener()
  }
  const metaOf = (name: keyof V) => state.fieldMeta[name] ?? blankMeta()
  const setMeta = (name: keyof V, change: Partial<FieldMeta>) => {
    const meta = { ...metaOf(name), ...change }
    meta.errors = CAUSES.map((cause) => meta.errorMap[cause]).filter((error) => error !== undefined)
    set({ fieldMeta: { ...state.fieldMeta, [name]: meta } })
  }
  const fieldApi = <K extends keyof V>(name: K): FieldApi<V, K> => ({
    name,
    form,
    state: { value: state.values[name], meta: metaOf(name) },
    handleChange: (value) => form.setFieldValue(name, value),
    handleBlur: () => {
      setMeta(name, { isTouched: true, isBlurred: true })
      validate(name, ['onBlur'])
    },
  })
  /** Runs a field's validators for these causes; anything but a submit clears an on-submit error it did not repeat. */
  const validate = (name: keyof V, causes: Cause[]): boolean => {
    const errorMap = { ...metaOf(name).errorMap }
    let failed = false
    for (const cause of causes) {
      const check = mounted.has(name) ? validators[name]?.[cause] : undefined
      const error = check
        ? check({ value: state.values[name], fieldApi: fieldApi(name) }) || undefined
        : undefined
      if (check || errorMap[cause] !== undefined) errorMap[cause] = error
      failed ||= error !== undefined
    }
    if (!causes.includes('onSubmit') && !failed) errorMap.onSubmit = undefined
    setMeta(name, { errorMap })
    return failed
  }
  const form: FormApi<V> = {
    store: {
      get: () => state,
      subscribe: (listener) => {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
    },
    getFieldValue: (name) => state.values[name],
    setFieldValue: (name, value) => {
      setMeta(name, { isTouched: true, isDirty: true })
      set({ values: { ...state.values, [name]: value } })
      validate(name, ['onChange'])
    },
    reset: (values) => {
      if (values) defaults = values
      state = initial(values ?? defaults)
      for (const listener of listeners) listener()
    },
    handleSubmit: async () => {
      set({ submissionAttempts: state.submissionAttempts + 1, isSubmitted: false, isSubmitSuccessful: false })
      for (const name of mounted) if (!metaOf(name).isTouched) setMeta(name, { isTouched: true })
      if (!state.canSubmit && state.submissionAttempts <= 1) return
      set({ isSubmitting: true })
      await Promise.resolve()
      let failed = false
      for (const name of mounted) failed = validate(name, CAUSES) || failed
      if (failed) {
        set({ isSubmitting: false })
        return
      }
      try {
        await options.current.onSubmit?.({ value: state.values, formApi: form })
        set({ isSubmitted: true, isSubmitSuccessful: true, isSubmitting: false })
      } catch (error) {
        set({ isSubmitSuccessful: false, isSubmitting: false })
        throw error
      }
    },
    // biome-ignore lint/correctness/noComponentHookFactories: made once per form (useForm keeps it in state), so its identity is stable
    Field: function Field({ name, validators: own, children }) {
      validators[name] = own as FieldValidators<V, keyof V> | undefined
      useStore(form.store, (current) => [current.values[name], current.fieldMeta[name]])
      useLayoutEffect(() => {
        mounted.add(name)
        return () => {
          mounted.delete(name)
          // An unmounted field keeps what the user did to it, not its errors.
          const meta = state.fieldMeta[name]
          if (meta)
            setMeta(name, {
              ...blankMeta(),
              isTouched: meta.isTouched,
              isBlurred: meta.isBlurred,
              isDirty: meta.isDirty,
            })
        }
      }, [name])
      return children(fieldApi(name))
    },
    // biome-ignore lint/correctness/noComponentHookFactories: made once per form, as Field
    Subscribe: function Subscribe({ selector, children }) {
      return children(useStore(form.store, selector))
    },
  }
  /** New default values from the component replace the values while no field has been touched. */
  ;(form as FormApi<V> & { update: (next: V) => void }).update = (next) => {
    if (shallowEqual(next, defaults)) return
    defaults = next
    if (!state.isTouched) set({ values: next })
  }
  return form
}

/** A form's state and components, kept for the component's lifetime; the options are read at each render. */
export function useForm<V extends Values>(options: FormOptions<V>): FormApi<V> {
  const latest = useRef(options)
  latest.current = options
  const [form] = useState(() => createForm(latest))
  useLayoutEffect(() => (form as FormApi<V> & { update: (next: V) => void }).update(options.defaultValues))
  return form
}
