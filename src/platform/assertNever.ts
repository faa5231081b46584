/**
 * The end of every switch over a closed set (commands, task kinds, reports): the compiler
 * names any case left out, and a value from outside the set (an old stored row) fails loudly.
 */
export function assertNever(value: never, what = "value"): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
