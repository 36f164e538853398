// The worker's memory allocator setting, for every launcher that starts a worker (npm start, the test app the browser
// tests and benchmarks start; docker-compose.yml sets the same). glibc gives each thread that allocates at once an
// arena of its own (up to 8 per core) and rarely hands freed arena memory back: the worker's threads (sharp's, the
// Temporal core's, Node's) kept about 950 MiB outside V8's heap. Two arenas kept the same 5-minute video's worker
// (node and its voice) at 1,002 MiB against 1,548, as fast (decision 293). An operator's own MALLOC_ARENA_MAX wins.
export const WORKER_MALLOC_ENV = { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" };
