import { IdParamsSchema } from '../common.ts'
import { MemberListSchema, MemberSchema, MemberUpdateSchema } from '../organizations.ts'
import { endpoint } from './endpoint.ts'

/** The members of the selected organization. */
export const memberEndpoints = {
  list: endpoint({ method: 'get', path: '/users', response: MemberListSchema }),
  one: endpoint({ method: 'get', path: '/users/:id', params: IdParamsSchema, response: MemberSchema }),
  update: endpoint({
    method: 'patch',
    path: '/users/:id',
    params: IdParamsSchema,
    body: MemberUpdateSchema,
    response: MemberSchema,
  }),
}
