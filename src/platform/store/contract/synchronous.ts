/**
 * A repository as a synchronous store implements it: each method returns what its promise would
 * hold. The SQLite stores (better-sqlite3 answers synchronously) declare
 * `implements Synchronous<XRepository>`, so the compiler holds them to the written interface, and
 * reach callers through `promised` (src/platform/store/promised.ts), which gives the interface itself.
 */
export type Synchronous<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => Promise<infer T> ? (...args: A) => T : R[K];
};
