import { closestWord, decodeSlackEntities, firstWord, foldWord, squeeze } from "./text.js";
import type {
  EtransportCommandResult,
  GrammarContext,
  GrammarError,
  GrammarProblem,
  TransportStatusFilter,
} from "./types.js";
import { EXAMPLE_UIT, normaliseUit, parseUitList } from "./uit.js";

/**
 * `/etransport` grammar. Rules where the contract is silent:
 * - No text = `list` with the default filter (pending, active and paused).
 * - `list` status words: pending = 1, active = 2 (In Progress), paused = 6, completed = 3 and 4
 *   (Completed, Auto Completed), all = 1, 2, 3, 4, 6; default = 1, 2, 6. Several leading status words
 *   combine (`list active paused`); the rest of the text is the search. A search that is a UIT
 *   (any dashes, spaces or case) is sent normalised.
 * - `start|pause|end` take one or more UITs; without any they open a form that asks for them.
 * - `edit` and `remove` take exactly one UIT; without it they open a form.
 * - `new [UIT]` opens the create form, prefilled with the UIT when one is given.
 * - `history` takes exactly one UIT; without it (there is no form) it says so, with an example.
 * - Romanian words run their subcommand whatever the language setting, with or without diacritics
 *   and case, the comma-below `ș`/`ț` and the cedilla `ş`/`ţ` alike: `listă`, `nou`, `pornește`,
 *   `pauză`, `finalizează` (the glossary's word, as the status Finalizat), `editează`, `șterge`, `ajutor`. A typo of one is answered with the Romanian
 *   word, spelled as typed (with or without diacritics).
 */

export const STATUS_IDS: Record<Exclude<TransportStatusFilter, "default">, readonly number[]> = {
  pending: [1],
  active: [2],
  paused: [6],
  completed: [3, 4],
  all: [1, 2, 3, 4, 6],
};
export const DEFAULT_STATUS_IDS: readonly number[] = [1, 2, 6];

const SUBCOMMANDS = ["help", "new", "list", "start", "pause", "end", "edit", "remove", "history"] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

const SYNONYMS: Record<string, Subcommand> = {
  add: "new",
  create: "new",
  ls: "list",
  show: "list",
  search: "list",
  find: "list",
  begin: "start",
  resume: "start",
  finish: "end",
  complete: "end",
  update: "edit",
  change: "edit",
  delete: "remove",
  del: "remove",
  rm: "remove",
  log: "history",
  audit: "history",
  trail: "history",
};

/** The Romanian words, as written with diacritics, and the subcommand each runs. */
export const ETRANSPORT_ROMANIAN_WORDS: ReadonlyMap<string, Subcommand> = new Map<string, Subcommand>([
  ["ajutor", "help"],
  ["listă", "list"],
  ["nou", "new"],
  ["pornește", "start"],
  ["pauză", "pause"],
  ["finalizează", "end"],
  ["editează", "edit"],
  ["șterge", "remove"],
]);
/** Further Romanian words dispatchers type for a subcommand (CONTRACT.md); the help names the first above. */
const ROMANIAN_ALSO: ReadonlyMap<string, Subcommand> = new Map<string, Subcommand>([
  ["reia", "start"],
  ["termină", "end"],
  ["încheie", "end"],
  ["modifică", "edit"],
  ["adaugă", "new"],
  ["istoric", "history"],
]);
const ROMANIAN_BY_FOLD: ReadonlyMap<string, Subcommand> = new Map(
  [...ETRANSPORT_ROMANIAN_WORDS, ...ROMANIAN_ALSO].map(([word, sub]) => [foldWord(word), sub]),
);

/**
 * Words that say "stop" without saying how: end a transport for good, or pause it. They never run;
 * the answer names end, with pause beside it (never start, which a typo's nearest word would be:
 * `oprește` is two letters from `pornește`). The Romanian answer is spelled as typed.
 */
const STOP_WORDS: ReadonlyMap<string, { plain: string; written: string }> = new Map([
  ["stop", { plain: "end", written: "end" }],
  ["opreste", { plain: "finalizeaza", written: "finalizează" }],
]);

/** The answer to a stop word, spelled as typed (without diacritics when typed without them). */
function stopAnswer(word: string): string | undefined {
  const folded = foldWord(word);
  const answer = STOP_WORDS.get(folded);
  if (!answer) return undefined;
  return folded === word.toLowerCase() ? answer.plain : answer.written;
}

/** The subcommand a word names: English (any case) or Romanian (any case, with or without diacritics). */
function subcommandOf(word: string): string {
  return ROMANIAN_BY_FOLD.get(foldWord(word)) ?? word.toLowerCase();
}

/** What a typo may be near: the subcommands, and the Romanian words with and without diacritics. */
const SUGGESTIBLE: readonly string[] = [
  ...SUBCOMMANDS,
  ...[...ETRANSPORT_ROMANIAN_WORDS.keys(), ...ROMANIAN_ALSO.keys()].flatMap((w) =>
    foldWord(w) === w ? [w] : [w, foldWord(w)],
  ),
];

const EXAMPLES: Record<Subcommand, string> = {
  help: "/etransport help",
  new: "/etransport new",
  list: "/etransport list active",
  start: `/etransport start ${EXAMPLE_UIT}`,
  pause: `/etransport pause ${EXAMPLE_UIT}`,
  end: `/etransport end ${EXAMPLE_UIT}`,
  edit: `/etransport edit ${EXAMPLE_UIT}`,
  remove: `/etransport remove ${EXAMPLE_UIT}`,
  history: `/etransport history ${EXAMPLE_UIT}`,
};

function fail(problem: GrammarProblem, example: string, extra: Partial<GrammarError> = {}): GrammarError {
  return { ok: false, kind: "error", problem, example, ...extra };
}

/**
 * The list's status words in Romanian (folded: no case, no diacritics), as a dispatcher types
 * them and as the statuses read: `toate`, `în așteptare`, `în desfășurare`, `în pauză`/`pauză`,
 * `finalizate`. `în` is taken only before one of them.
 */
const ROMANIAN_STATUS_WORDS: ReadonlyMap<string, Exclude<TransportStatusFilter, "default">> = new Map([
  ["toate", "all"],
  ["asteptare", "pending"],
  ["desfasurare", "active"],
  ["pauza", "paused"],
  ["finalizate", "completed"],
  ["finalizat", "completed"],
]);

/** The status filter at `words[i]` (English, or Romanian with its `în`), and how many words it took. */
function statusFilterAt(
  words: readonly string[],
  i: number,
): { filter: Exclude<TransportStatusFilter, "default">; words: number } | undefined {
  const word = (words[i] ?? "").toLowerCase().replace(/,$/, "");
  if (Object.hasOwn(STATUS_IDS, word))
    return { filter: word as Exclude<TransportStatusFilter, "default">, words: 1 };
  const folded = foldWord(word);
  const romanian = ROMANIAN_STATUS_WORDS.get(folded);
  if (romanian) return { filter: romanian, words: 1 };
  const next = ROMANIAN_STATUS_WORDS.get(foldWord((words[i + 1] ?? "").replace(/,$/, "")));
  if (folded === "in" && next && next !== "all") return { filter: next, words: 2 };
  return undefined;
}

function parseList(args: string): EtransportCommandResult {
  const words = squeeze(decodeSlackEntities(args))
    .split(" ")
    .filter((w) => w !== "");
  const filters: TransportStatusFilter[] = [];
  let i = 0;
  while (i < words.length) {
    const read = statusFilterAt(words, i);
    if (!read) break;
    if (!filters.includes(read.filter)) filters.push(read.filter);
    i += read.words;
  }
  const ids =
    filters.length === 0
      ? [...DEFAULT_STATUS_IDS]
      : [...new Set(filters.flatMap((f) => STATUS_IDS[f as keyof typeof STATUS_IDS]))].sort((a, b) => a - b);
  const rawSearch = words.slice(i).join(" ");
  const search = normaliseUit(rawSearch) ?? rawSearch;
  return {
    ok: true,
    kind: "list",
    filters: filters.length === 0 ? ["default"] : filters,
    statusIds: ids,
    ...(search ? { search } : {}),
  };
}

function parseAction(
  sub: "start" | "pause" | "end" | "edit" | "remove" | "new",
  args: string,
): EtransportCommandResult {
  const parsed = parseUitList(args);
  if (!parsed.ok) return fail(parsed.problem, EXAMPLES[sub]);
  const uits = parsed.uits;
  if (uits.length === 0) {
    return sub === "new" ? { ok: true, kind: "new" } : { ok: true, kind: "modal", form: sub };
  }
  switch (sub) {
    case "start":
    case "pause":
    case "end":
      return { ok: true, kind: sub, uits };
    case "new":
    case "edit":
    case "remove":
      if (uits.length > 1) {
        return fail(
          { code: "oneTransport", command: `/etransport ${sub}`, count: uits.length },
          `/etransport ${sub} ${uits[0]}`,
        );
      }
      return sub === "new"
        ? { ok: true, kind: "new", uit: uits[0]! }
        : { ok: true, kind: sub, uit: uits[0]! };
  }
}

/** `history <UIT>`: one transport; a missing or second UIT is said with an example (no form asks for it). */
function parseHistory(args: string): EtransportCommandResult {
  const parsed = parseUitList(args);
  if (!parsed.ok) return fail(parsed.problem, EXAMPLES.history);
  const [uit, ...more] = parsed.uits;
  if (!uit) {
    return fail({ code: "historyNeedsUit" }, EXAMPLES.history);
  }
  if (more.length > 0) {
    return fail({ code: "historyOne", count: parsed.uits.length }, `/etransport history ${uit}`);
  }
  return { ok: true, kind: "history", uit };
}

/** Parse the text after `/etransport`. Pure. */
export function parseEtransportCommand(text: string, _ctx?: GrammarContext): EtransportCommandResult {
  const [word, args] = firstWord(text);
  const sub = subcommandOf(word);
  switch (sub) {
    case "":
      return parseList("");
    case "help":
      return { ok: true, kind: "help" };
    case "list":
      return parseList(args);
    case "new":
    case "start":
    case "pause":
    case "end":
    case "edit":
    case "remove":
      return parseAction(sub, args);
    case "history":
      return parseHistory(args);
  }
  // `/etransport Y45R-577U-N544-GY4S`: a UIT without a verb.
  const asUits = parseUitList(squeeze(text));
  if (asUits.ok && asUits.uits.length > 0) {
    const uit = asUits.uits[0]!;
    return fail({ code: "uitWithoutVerb", uit }, `/etransport start ${asUits.uits.join(" ")}`, {
      showHelp: true,
    });
  }
  const stop = stopAnswer(word);
  const near =
    stop ?? (Object.hasOwn(SYNONYMS, sub) ? SYNONYMS[sub] : undefined) ?? closestWord(sub, SUGGESTIBLE);
  if (near) {
    const retried = parseEtransportCommand(`${near} ${args}`);
    const example =
      retried.ok && retried.kind !== "modal"
        ? `/etransport ${near}${args ? ` ${args}` : ""}`
        : EXAMPLES[subcommandOf(near) as Subcommand];
    return fail(
      {
        code: "unknownSubcommand",
        root: "/etransport",
        given: `/etransport ${word}`,
        suggestion: `/etransport ${near}`,
        ...(stop ? { pauseToo: true } : {}),
      },
      example,
      { suggestion: near, showHelp: true },
    );
  }
  return fail(
    { code: "unknownSubcommand", root: "/etransport", given: `/etransport ${word}` },
    "/etransport help",
    {
      showHelp: true,
    },
  );
}
