/** Romanian, the command grammar (see en/grammar.ts). */
import type { grammar as en } from "../en/grammar.js";
import type { SameParameters, Translation } from "../section.js";

export const grammar = {} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof grammar>;
