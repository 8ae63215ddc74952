// The environment the production server process starts with (`npm start`, and the API benchmark that measures
// it): production mode, and glibc's malloc limited to two arenas. Node's threads (the libuv pool, V8's
// helpers) each take an arena of their own by default, up to eight per core: under load the process kept about
// 25 MiB more memory that way, for no throughput (docs/server-notes.md, issue 14).
export const SERVER_PROCESS_DEFAULTS = { NODE_ENV: 'production', MALLOC_ARENA_MAX: '2' } as const

/** `env` with the defaults above where it does not set them. */
export function serverProcessEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    NODE_ENV: env.NODE_ENV ?? SERVER_PROCESS_DEFAULTS.NODE_ENV,
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? SERVER_PROCESS_DEFAULTS.MALLOC_ARENA_MAX,
  }
}
