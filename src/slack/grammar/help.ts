import type { Vehicle } from "../../fleet/schemas.js";
import { type AnyReportEntry, REPORT_ENTRIES } from "../../reports/catalogue.js";
import { userCode } from "../views/text.js";
import { ETRANSPORT_ROMANIAN_WORDS } from "./etransport.js";
import { FLEET_ROMANIAN_WORDS } from "./fleet.js";
import { EXAMPLE_UIT } from "./uit.js";

/**
 * Usage lines and examples. Every example parses OK whatever the date (they use relative periods),
 * which the tests check.
 */

export interface UsageLine {
  syntax: string;
  does: string;
  example: string;
  /** The Romanian words of the command (with diacritics), shown beside the English one. */
  romanian?: readonly string[];
}

/** The Romanian words of the subcommands `subs`, in the order of `subs`. */
function romanianOf(words: ReadonlyMap<string, string>, ...subs: string[]): { romanian: readonly string[] } {
  return { romanian: subs.flatMap((sub) => [...words].filter(([, s]) => s === sub).map(([word]) => word)) };
}
const fleetRo = (sub: string) => romanianOf(FLEET_ROMANIAN_WORDS, sub);
const etransportRo = (...subs: string[]) => romanianOf(ETRANSPORT_ROMANIAN_WORDS, ...subs);

/** A report's usage line, from its catalogue entry: `/fleet stops <vehicles|all> [period] [min=<minutes>]`. */
function reportUsage(report: AnyReportEntry): UsageLine {
  const vehicles = { one: " <vehicle>", several: " <vehicles|all>", filter: " [filter]" }[report.vehicles];
  const period = report.period === "required" ? " [period]" : "";
  const min = report.minStop ? " [min=<minutes>]" : "";
  return {
    syntax: `/fleet ${report.name}${vehicles}${period}${min}`,
    does: report.does,
    example: `/fleet ${report.name} ${report.helpExample}`,
    romanian: report.romanian,
  };
}

/** The filters only `alerts subscribe` takes (read by the alerts listener, not the grammar). */
const ALERT_OPTIONS =
  "`min=15` posts a problem only once it lasted 15 minutes, `exclude=OldData,Error` leaves codes out, `vehicles=B-123-ABC,CJ-10-XYZ` keeps to those vehicles, `stale=45` warns when no position was sent for 45 minutes (default 30, `stale=0` off)";

/** An example of the alert filters, for the tests: the listener takes them out before the grammar. */
export const ALERT_OPTIONS_EXAMPLE =
  "/fleet alerts subscribe Error min=15 exclude=OldData vehicles=B-123-ABC";

export const fleetUsage: readonly UsageLine[] = [
  { syntax: "/fleet help", does: "this list", example: "/fleet help", ...fleetRo("help") },
  { syntax: "/fleet login", does: "link your fleet account (opens a form)", example: "/fleet login" },
  {
    syntax: "/fleet login workspace",
    does: "the workspace's fleet account, for everyone who linked none (installed with Add to Slack: the installer or an admin)",
    example: "/fleet login workspace",
  },
  { syntax: "/fleet logout", does: "unlink your fleet account", example: "/fleet logout" },
  { syntax: "/fleet whoami", does: "the fleet account your commands use", example: "/fleet whoami" },
  ...REPORT_ENTRIES.map(reportUsage),
  {
    syntax: "/fleet report",
    does: "a form to build any report above",
    example: "/fleet report",
    ...fleetRo("report"),
  },
  {
    syntax:
      "/fleet alerts subscribe [#channel] [codes…] [min=<minutes>] [exclude=<codes>] [vehicles=<plates>] [stale=<minutes>]",
    does: `post transport alerts in a channel (all codes when none given); ${ALERT_OPTIONS}`,
    example: "/fleet alerts subscribe Error OldData NoGPSCoordinates",
  },
  {
    syntax: "/fleet alerts unsubscribe [#channel]",
    does: "stop alerts in a channel",
    example: "/fleet alerts unsubscribe",
  },
  { syntax: "/fleet alerts list", does: "channels that receive alerts", example: "/fleet alerts list" },
  {
    syntax: "/fleet queue",
    does: "your queued and running requests",
    example: "/fleet queue",
    ...fleetRo("queue"),
  },
];

export const etransportUsage: readonly UsageLine[] = [
  {
    syntax: "/etransport new",
    does: "create a transport (opens a form)",
    example: "/etransport new",
    ...etransportRo("new"),
  },
  {
    syntax: "/etransport list [pending|active|paused|completed|all] [search]",
    does: "transports with buttons (default: pending, active and paused)",
    example: "/etransport list active B-123-ABC",
    ...etransportRo("list"),
  },
  {
    syntax: "/etransport start|pause|end <UIT> [<UIT>…]",
    does: "start, pause or end transports",
    example: `/etransport start ${EXAMPLE_UIT}`,
    ...etransportRo("start", "pause", "end"),
  },
  {
    syntax: "/etransport edit <UIT>",
    does: "change a transport (opens a form)",
    example: `/etransport edit ${EXAMPLE_UIT}`,
    ...etransportRo("edit"),
  },
  {
    syntax: "/etransport remove <UIT>",
    does: "delete a transport, after you confirm",
    example: `/etransport remove ${EXAMPLE_UIT}`,
    ...etransportRo("remove"),
  },
  {
    syntax: "/etransport history <UIT>",
    does: "who created, changed, started, paused, ended or removed a transport, when, and the service's answer",
    example: `/etransport history ${EXAMPLE_UIT}`,
  },
];

export const fleetUsageExamples: readonly string[] = fleetUsage.map((l) => l.example);
export const etransportUsageExamples: readonly string[] = etransportUsage.map((l) => l.example);

const PERIODS =
  "*Periods* (your time zone): `today` (default), `yesterday`, `last 12h`, `last 3d`, `this week`, `last week`, `last month`, `2026-11-03`, `2026-11-03..2026-11-05`, `2026-11-03 08:00..2026-11-03 17:00`; in Romanian too: `azi`, `ieri`, `alaltăieri`, `săptămâna trecută`, `luna trecută`, `ultimele 3 zile`, `ultimele 12 ore`";
const VEHICLES =
  "*Vehicles*: registration number (`b 123 abc` = `B-123-ABC`), name, or `#&lt;id&gt;`; several separated by commas; `all` for every vehicle";
const ALERT_CODES =
  "*Alert codes*: `Error`, `OldData`, `NoGPSCoordinates`, `NotInRomania`, `MissingETransportConfiguration`, `WithoutTransmission`, `expiry` (UIT validity ending), `changerequest` (vehicle change failed), `notstarted` (Pending past its start), `Vanished` (no longer listed, not completed: maybe in Error, which the service hides), `Stalled` (no position sent for `stale=` minutes, default 30; `stale=0` off), or `all` (the default)";

function lines(usage: readonly UsageLine[]): string[] {
  // Escaped, or Slack would read the syntax's placeholders (`<vehicle>`) as links; fleetbot's own
  // text, so never cut.
  const whole = (text: string) => userCode(text, text.length * 5);
  return usage.map((l) => `• ${whole(l.syntax)}${romanianWords(l)} – ${l.does}. e.g. ${whole(l.example)}`);
}

/** ` (`unde`)`, ` (`pornește`|`pauză`|`termină`)` as the syntax writes alternatives; empty when none. */
function romanianWords(line: UsageLine): string {
  const words = line.romanian ?? [];
  // `start|pause|end`: the words of alternative subcommands are alternatives too.
  const between = line.syntax.split(" ")[1]?.includes("|") ? "|" : ", ";
  return words.length > 0 ? ` (${words.map((w) => userCode(w)).join(between)})` : "";
}

/** The headings say what the bracketed words are. */
const ROMANIAN_NOTE = "_(in brackets: the Romanian word, also without diacritics)_";

/**
 * Vehicles of the reader's account for the examples: made-up plates answer "No vehicle…" to
 * whoever tries them.
 */
export interface VehicleExamples {
  /** Plates written as one word each (a command reads them so), the first used most. */
  plates: readonly string[];
  vehicleId?: number;
}

/** The examples from an account's vehicle list (its first two plates); undefined when it has none. */
export function vehicleExamples(
  vehicles: readonly Pick<Vehicle, "vehicleId" | "vehicleRegistrationNumber">[],
): VehicleExamples | undefined {
  const withPlates = vehicles.flatMap((v) => {
    const plate = (v.vehicleRegistrationNumber ?? "").trim().replace(/\s+/g, "-");
    return /^[\p{L}\p{N}]+(-[\p{L}\p{N}]+)*$/u.test(plate) ? [{ plate, id: v.vehicleId }] : [];
  });
  const first = withPlates[0];
  if (!first) return undefined;
  return { plates: withPlates.slice(0, 2).map((v) => v.plate), vehicleId: first.id };
}

/** The made-up vehicles of the help (and of a grammar error's example), replaced by the account's own. */
export function withVehicles(text: string, examples: VehicleExamples | undefined): string {
  const [first, second] = examples?.plates ?? [];
  if (!examples || !first) return text;
  const secondPlate = (all: string) =>
    second ? all.replace(/CJ-(07|10)-XYZ/g, second) : all.replace(/,\s?CJ-(07|10)-XYZ/g, "");
  return secondPlate(text)
    .replaceAll("b 123 abc", first.toLowerCase().replaceAll("-", " "))
    .replaceAll("B-123-ABC", first)
    .replaceAll("#1234", examples.vehicleId !== undefined ? `#${examples.vehicleId}` : first);
}

/**
 * The command list as Slack mrkdwn, one line per command. `which` narrows it to one slash command;
 * `examples`: the reader's vehicles, used in the examples when their account's list is known.
 */
export function helpText(which: "fleet" | "etransport" | "all" = "all", examples?: VehicleExamples): string {
  const out: string[] = [];
  if (which !== "etransport") out.push(`*/fleet* ${ROMANIAN_NOTE}`, ...lines(fleetUsage));
  if (which !== "fleet") out.push(`*/etransport* ${ROMANIAN_NOTE}`, ...lines(etransportUsage));
  if (which !== "etransport") out.push(VEHICLES, PERIODS, ALERT_CODES);
  if (which !== "fleet") out.push("*UIT*: 16 letters and digits; dashes and spaces do not matter");
  return withVehicles(out.join("\n"), examples);
}
