/**
 * `/fleet zones [add … | remove …]` (Romanian `zone adaugă|șterge`): the one reading of the zones
 * command. Pure.
 *
 * - `zones` alone (or `zones list`/`listă`) lists the workspace's zones.
 * - `zones add <name> <lat>,<lon> [radius=<m>]`: the centre as two decimal numbers, comma-separated
 *   (`44.4326,25.9723`, a space after the comma is fine, as maps copy it) or space-separated
 *   (`44,4326 25,9723` with decimal commas). The name is every word before them, or a quoted name.
 * - `zones add <name> at <vehicle> [radius=<m>]` (`la`): the vehicle's position now; the last `at`
 *   splits, so a name may hold the word.
 * - `zones remove <name>` (`șterge`, `delete`).
 * - `radius=` whole metres, 50–50,000, default 300 (`rază=` too).
 */
import { closestWord, decodeSlackEntities, firstWord, foldWord, squeeze } from "./text.js";
import type { FleetCommandResult, GrammarError, GrammarProblem } from "./types.js";

export const DEFAULT_ZONE_RADIUS_M = 300;
export const MIN_ZONE_RADIUS_M = 50;
export const MAX_ZONE_RADIUS_M = 50_000;
/** A zone name as shown: at most this many characters. */
export const MAX_ZONE_NAME = 60;

export const ZONE_EXAMPLES = {
  add: "/fleet zones add Depou 44.4326,25.9723 radius=500",
  at: "/fleet zones add Client Cluj at B-101-FLT",
  remove: "/fleet zones remove Depou",
  list: "/fleet zones",
} as const;

const SUBCOMMANDS: ReadonlyMap<string, "list" | "add" | "remove"> = new Map([
  ["", "list"],
  ["list", "list"],
  ["lista", "list"],
  ["add", "add"],
  ["new", "add"],
  ["adauga", "add"],
  ["remove", "remove"],
  ["delete", "remove"],
  ["sterge", "remove"],
]);

function fail(problem: GrammarProblem, example: string): GrammarError {
  return { ok: false, kind: "error", problem, example };
}

/** `radius=<m>` out of the words, a bad value kept as typed. */
function takeRadius(text: string): { rest: string; radius?: number; bad?: string } {
  let radius: number | undefined;
  let bad: string | undefined;
  const rest = text.replace(/(?:^|\s)(?:radius|raza|rază)\s*=\s*(\S+)/giu, (_m, value: string) => {
    const n = Number(value.replace(/[.\s]/g, "").replace(/m$/i, ""));
    if (Number.isInteger(n) && n >= MIN_ZONE_RADIUS_M && n <= MAX_ZONE_RADIUS_M) radius = n;
    else bad = value;
    return " ";
  });
  return {
    rest: squeeze(rest),
    ...(radius === undefined ? {} : { radius }),
    ...(bad === undefined ? {} : { bad }),
  };
}

const NUMBER_DOT = String.raw`-?\d{1,3}(?:\.\d+)?`;
const NUMBER_COMMA = String.raw`-?\d{1,3}(?:,\d+)?`;
/** The centre at the end of the words: `44.43,25.97`, `44.43, 25.97`, `44.43 25.97` or `44,43 25,97`. */
const CENTRE = new RegExp(
  String.raw`(?:^|\s)(?:(${NUMBER_DOT})\s*,\s*(${NUMBER_DOT})|(${NUMBER_DOT})\s+(${NUMBER_DOT})|(${NUMBER_COMMA})\s+(${NUMBER_COMMA}))$`,
);

function readCentre(text: string): { name: string; latitude: number; longitude: number } | "bad" | undefined {
  const m = CENTRE.exec(text);
  if (!m) return undefined;
  const lat = Number((m[1] ?? m[3] ?? m[5] ?? "").replace(",", "."));
  const lon = Number((m[2] ?? m[4] ?? m[6] ?? "").replace(",", "."));
  if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180) || (lat === 0 && lon === 0)) return "bad";
  return { name: text.slice(0, m.index).trim(), latitude: lat, longitude: lon };
}

/** A quoted name keeps its spaces; quotes are dropped. */
function nameOf(words: string): string {
  const quoted = /^["“„](.*)["”]$/.exec(words.trim());
  return squeeze((quoted?.[1] ?? words).trim());
}

function checkedName(name: string, example: string): string | GrammarError {
  if (name === "") return fail({ code: "zoneCommand", problem: "name" }, example);
  if (name.length > MAX_ZONE_NAME || /[<>*_`~|]/.test(name))
    return fail({ code: "zoneCommand", problem: "nameCharacters", given: name.slice(0, 80) }, example);
  return name;
}

function parseAdd(args: string): FleetCommandResult {
  const { rest, radius, bad } = takeRadius(args);
  if (bad !== undefined)
    return fail({ code: "zoneCommand", problem: "radius", given: `radius=${bad}` }, ZONE_EXAMPLES.add);
  const radiusMeters = radius ?? DEFAULT_ZONE_RADIUS_M;
  const centre = readCentre(rest);
  if (centre === "bad")
    return fail({ code: "zoneCommand", problem: "coordinates", given: rest }, ZONE_EXAMPLES.add);
  if (centre) {
    const name = checkedName(nameOf(centre.name), ZONE_EXAMPLES.add);
    if (typeof name !== "string") return name;
    return {
      ok: true,
      kind: "zones-add",
      name,
      centre: { latitude: centre.latitude, longitude: centre.longitude },
      radiusMeters,
    };
  }
  // `<name> at <vehicle>`: the last `at`/`la` splits.
  const at = /^(.*)\s(?:at|la)\s+(\S.*)$/i.exec(rest);
  if (at) {
    const name = checkedName(nameOf(at[1] ?? ""), ZONE_EXAMPLES.at);
    if (typeof name !== "string") return name;
    return { ok: true, kind: "zones-add", name, vehicle: squeeze(at[2] ?? ""), radiusMeters };
  }
  return fail(
    { code: "zoneCommand", problem: rest === "" ? "name" : "where", given: rest },
    ZONE_EXAMPLES.add,
  );
}

export function parseZones(args: string): FleetCommandResult {
  const text = squeeze(decodeSlackEntities(args));
  const [word, rest] = firstWord(text);
  const sub = SUBCOMMANDS.get(foldWord(word));
  switch (sub) {
    case "list":
      if (rest !== "") return fail({ code: "takesNothing", command: "/fleet zones" }, ZONE_EXAMPLES.list);
      return { ok: true, kind: "zones-list" };
    case "add":
      return parseAdd(rest);
    case "remove": {
      const name = checkedName(nameOf(rest), ZONE_EXAMPLES.remove);
      if (typeof name !== "string") return name;
      return { ok: true, kind: "zones-remove", name };
    }
    default: {
      const near = closestWord(foldWord(word), ["add", "remove", "list", "adauga", "sterge"]);
      const suggestion = near === "adauga" ? "adaugă" : near === "sterge" ? "șterge" : near;
      return fail(
        { code: "zoneCommand", problem: "subcommand", given: word, ...(suggestion ? { suggestion } : {}) },
        ZONE_EXAMPLES.add,
      );
    }
  }
}
