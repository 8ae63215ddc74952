// The environment the production server process starts with (`npm start`, and the API benchmark that measures
// it): production mode, glibc's malloc limited to two arenas, and V8's young generation capped. Node's threads
// (the libuv pool, V8's helpers) each take an arena of their own by default, up to eight per core: under load
// the process kept about 25 MiB more memory that way, for no throughput. V8 grows the young generation with the
// allocation rate, up to two semi-spaces of 64 MiB on this heap size, and keeps it: after a minute of 64
// connections that was 128 MiB of the process's resident memory, for objects that live one request. 16 MiB
// semi-spaces (Node 18's default) hold them as well (docs/decisions.md, Operations; issue 14).
const SEMI_SPACE_OPTION = '--max-semi-space-size=16'
export const SERVER_PROCESS_DEFAULTS = {
  NODE_ENV: 'production',
  MALLOC_ARENA_MAX: '2',
  NODE_OPTIONS: SEMI_SPACE_OPTION,
} as const

/** `env` with the defaults above where it does not set them (NODE_OPTIONS gets the cap added, unless it sets one). */
export function serverProcessEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const options = env.NODE_OPTIONS?.trim()
  return {
    ...env,
    NODE_ENV: env.NODE_ENV ?? SERVER_PROCESS_DEFAULTS.NODE_ENV,
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? SERVER_PROCESS_DEFAULTS.MALLOC_ARENA_MAX,
    NODE_OPTIONS: !options
      ? SEMI_SPACE_OPTION
      : options.includes('--max-semi-space-size')
        ? options
        : `${options} ${SEMI_SPACE_OPTION}`,
  }
}
