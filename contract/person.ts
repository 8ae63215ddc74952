import * as v from 'valibot'

/** Who did something, as every answer names a person. */
export const PersonSchema = v.object({
  id: v.string(),
  email: v.string(),
  firstName: v.string(),
  lastName: v.string(),
})
export type Person = v.InferOutput<typeof PersonSchema>
