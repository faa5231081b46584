/**
 * A command that does not parse, in the reader's language: what is wrong (the grammar's problem
 * code and data, src/slack/grammar/problems.ts, written from the `grammar` catalogue) and an
 * example that works, in the reader's command words (`/fleet opriri … ieri` for a Romanian reader).
 */
import type { KnownBlock } from "@slack/types";
import { EXAMPLE_UIT, UIT_LENGTH } from "../../etransport/uit.js";
import { messages } from "../../i18n/catalogue.js";
import type { Language } from "../../i18n/language.js";
import type { VehicleLike, VehicleResolution } from "../../reports/vehicleRefs.js";
import { normalisePlate } from "../../reports/vehicleRefs.js";
import { commandIn, exampleIn } from "../grammar/examples.js";
import { MODAL_REPORTS } from "../grammar/fleet.js";
import type { GrammarError, GrammarProblem, ProblemOf } from "../grammar/types.js";
import { ALERT_CODES } from "../grammar/types.js";
import { sectionsOf } from "./blocks.js";
import { cut } from "./etransportText.js";
import type { SlackMessage } from "./message.js";
import { noticeMessage } from "./notice.js";
import { ECHO_MAX, fitMrkdwn, userCode } from "./text.js";
import { vehicleProblemsMrkdwn } from "./vehicleProblems.js";

/** An example command is fleetbot's own words around at most a few echoes of the user's. */
const EXAMPLE_MAX = 600;
/** At most this many echoes in a list; the rest are counted. */
const LIST_SHOWN = 5;

/** A resolution that did not find one vehicle. */
export type ResolutionProblem = Exclude<VehicleResolution<VehicleLike>, { kind: "found" | "all" }>;

/** Echoes as inline code, a few listed and the rest counted: "`a`, `b` and 3 more". */
function codeList(texts: readonly string[], language: Language): string {
  const listed = texts
    .slice(0, LIST_SHOWN)
    .map((t) => userCode(t))
    .join(", ");
  const more = texts.length - LIST_SHOWN;
  return more > 0 ? `${listed} ${messages(language).grammar.andMoreShort(more)}` : listed;
}

function describeVehicle(v: VehicleLike): string {
  return v.name && normalisePlate(v.name) !== normalisePlate(v.plate) ? `${v.plate} (${v.name})` : v.plate;
}

/**
 * A vehicle that a reference did not find, as a sentence in `language` naming what was typed.
 * Not yet escaped (echoes in backticks, vehicle names as the service gives them): it goes through
 * vehicleProblemsMrkdwn, which escapes and cuts each line.
 */
export function resolutionProblemText(r: ResolutionProblem, language: Language): string {
  const t = messages(language).grammar;
  // What was typed is cut to an echo's budget here (escaping comes later, per line): a 5,000-character
  // "vehicle" is not told back at the line's full length.
  const c = (text: string) => {
    const chars = [...text.replace(/`/g, "'")];
    return `\`${chars.length > ECHO_MAX ? `${chars.slice(0, ECHO_MAX - 1).join("")}…` : chars.join("")}\``;
  };
  switch (r.kind) {
    case "ambiguous": {
      const shown = r.candidates.slice(0, LIST_SHOWN).map(describeVehicle).join(", ");
      const more = r.candidates.length - LIST_SHOWN;
      return t.vehicleAmbiguous({
        given: c(r.ref.raw),
        count: r.candidates.length,
        candidates: more > 0 ? `${shown} ${t.andMoreShort(more)}` : shown,
      });
    }
    case "unknown": {
      const suggestions = r.suggestions.map((v) => c(v.plate)).join(` ${t.or()} `);
      return r.ref.type === "plate"
        ? t.vehicleUnknownPlate({ given: c(r.ref.raw), suggestions })
        : t.vehicleUnknownName({ given: c(r.ref.raw), suggestions });
    }
    case "not-visible":
      return t.vehicleNotVisible({ vehicle: c(`#${r.vehicleId}`) });
  }
}

/** What is wrong, as mrkdwn in `language` (echoes escaped and cut). */
export function grammarProblemText(problem: GrammarProblem, language: Language): string {
  const t = messages(language).grammar;
  const c = (text: string) => userCode(text);
  const command = (line: string) => userCode(commandIn(line, language));
  switch (problem.code) {
    case "notADate":
      return t.notADate({ given: c(problem.given), example: c(problem.example) });
    case "noSuchMonth":
      return t.noSuchMonth({ given: c(problem.given), month: problem.month });
    case "noSuchDay":
      return t.noSuchDay({ ...problem, given: c(problem.given) });
    case "tooFarBack":
    case "notATime":
    case "notStarted":
    case "skippedByClocks":
    case "rangeSeparator":
    case "lastNotANumber":
    case "strayWords":
    case "periodFirst":
    case "minNotWhole":
    case "notAVehicleId":
    case "notAVehicle":
    case "notAChannel":
    case "unsubscribeOnlyChannel":
    case "notALanguage":
      return t[problem.code]({ given: c(problem.given) });
    case "notAStart":
    case "notAnEnd":
    case "timeNeedsEnd":
      return t[problem.code]({ given: c(problem.given), example: c(problem.example) });
    case "endsBeforeStart":
      return t.endsBeforeStart({ given: c(problem.given), timed: problem.timed });
    case "tooLong":
      return t.tooLong({ given: c(problem.given), maxDays: problem.maxDays });
    case "lastNeedsUnit":
      return t.lastNeedsUnit({ given: c(problem.given), count: problem.count });
    case "countOutOfRange":
      return t.countOutOfRange({ given: c(problem.given), hours: problem.hours, max: problem.max });
    case "notAPeriod":
      return t.notAPeriod({
        given: c(problem.given),
        yesterday: c(problem.yesterday),
        range: c(problem.range),
      });
    case "optionTwice":
      return t.optionTwice({ option: c(problem.option) });
    case "minOutOfRange":
      return t.minOutOfRange({ given: c(problem.given), max: problem.max });
    case "minOnlyForStops":
      return t.minOnlyForStops({ command: command("/fleet stops") });
    case "unknownOption":
      return t.unknownOption({
        option: c(problem.option),
        command: command(problem.command),
        onlyMin: problem.onlyMin,
      });
    case "oneVehicleNotAll":
      return t.oneVehicleNotAll({
        command: command(problem.command),
        ...(problem.where ? { vehiclesCommand: command("/fleet vehicles") } : {}),
      });
    case "oneVehicleMany":
      return t.oneVehicleMany({
        command: command(problem.command),
        count: problem.given.length,
        given: codeList(problem.given, language),
      });
    case "snapshotNoPeriod":
      return t.snapshotNoPeriod({ command: command(problem.command), routeCommand: command("/fleet route") });
    case "reportAfterWord":
      return t.reportAfterWord({
        given: c(problem.given),
        word: c(commandIn("/fleet report", language).slice("/fleet ".length)),
        reports: MODAL_REPORTS.map((r) => c(commandIn(`/fleet ${r}`, language).slice("/fleet ".length))).join(
          ", ",
        ),
      });
    case "vehicleWithoutSubcommand":
      return t.vehicleWithoutSubcommand({ vehicle: c(problem.vehicle) });
    case "vehiclesNotFound":
      return vehicleProblemsMrkdwn(
        problem.problems.map((r) => resolutionProblemText(r, language)),
        language,
      );
    case "oneChannel":
    case "workspaceLanguageMissing":
    case "loginTakesNothing":
    case "notACommand":
      return t[problem.code]();
    case "takesNothing":
    case "oneLanguage":
      return t[problem.code]({ command: command(problem.command) });
    case "notAnAlertCode":
      return t.notAnAlertCode({
        given: c(problem.given),
        ...(problem.suggestion !== undefined ? { suggestion: c(problem.suggestion) } : {}),
        codes: ALERT_CODES.map(c).join(", "),
      });
    case "alertOption":
      return alertOptionText(problem, language);
    case "unknownAlertsSubcommand":
      return t.unknownAlertsSubcommand({
        given: c(problem.given),
        ...(problem.suggestion !== undefined ? { suggestion: c(problem.suggestion) } : {}),
      });
    case "unknownSubcommand":
      return problem.suggestion === undefined
        ? t.unknownCommand({ given: c(problem.given), root: c(problem.root) })
        : t.unknownCommandNear({
            given: c(problem.given),
            suggestion: c(problem.suggestion),
            ...(problem.pauseToo ? { pauseCommand: command("/etransport pause") } : {}),
          });
    case "uitLength":
      return t.uitLength({
        given: c(problem.given),
        length: problem.length,
        uitLength: UIT_LENGTH,
        example: c(EXAMPLE_UIT),
      });
    case "uitCharacters":
      return t.uitCharacters({ given: c(problem.given), example: c(EXAMPLE_UIT) });
    case "oneTransport":
      return t.oneTransport({ command: command(problem.command), count: problem.count });
    case "historyNeedsUit":
      return t.historyNeedsUit({ command: command("/etransport history") });
    case "historyOne":
      return t.historyOne({ command: command("/etransport history"), count: problem.count });
    case "uitWithoutVerb":
      return t.uitWithoutVerb({
        uit: c(problem.uit),
        verbs: ["start", "pause", "end", "edit", "remove"]
          .map((v) => c(commandIn(`/etransport ${v}`, language).slice("/etransport ".length)))
          .join(", "),
      });
  }
}

/** An option of `/fleet alerts subscribe` that cannot be read, as typed; `stale=` and `lang=` name their example. */
function alertOptionText(problem: ProblemOf<"alertOption">, language: Language): string {
  const m = messages(language).alerts;
  const option = userCode(cut(`${problem.option}=${problem.value}`, 60));
  switch (problem.option) {
    case "min":
      return m.optionMin({ option });
    case "stale":
      return m.optionStale({ option, example: userCode("stale=45") });
    case "lang":
      return m.optionLang({
        option,
        ro: userCode("lang=ro"),
        en: userCode("lang=en"),
        example: userCode("/fleet alerts subscribe Error OldData lang=ro"),
      });
  }
}

/**
 * The answer to an alert option that cannot be read: the sentence, and for `min=` a whole
 * example beneath it (the others say theirs in the sentence).
 */
export function alertOptionMessage(problem: ProblemOf<"alertOption">, language: Language): SlackMessage {
  const text = alertOptionText(problem, language);
  return noticeMessage(
    `:warning: ${text}`,
    problem.option === "min" ? messages(language).alerts.optionExample() : undefined,
  );
}

/**
 * A wrong argument: what is wrong and an example that works (only the invoking user sees it), in
 * the reader's `language`; the command list (`help`, already in that language) under it when the
 * subcommand was not known.
 */
export function grammarErrorMessage(
  error: GrammarError,
  help: string | undefined,
  language: Language,
): SlackMessage {
  // An alert option's answer carries its own example (in the sentence or beneath), not a "Try:".
  if (error.problem.code === "alertOption") return alertOptionMessage(error.problem, language);
  const message = fitMrkdwn(grammarProblemText(error.problem, language), 2900);
  // A typo's example starts with the word it was near, in the language it was typed in: kept so.
  const nearTypo = error.problem.code === "unknownSubcommand" && error.problem.suggestion !== undefined;
  const example = userCode(nearTypo ? error.example : exampleIn(error.example, language), EXAMPLE_MAX);
  const tryWord = messages(language).grammar.tryExample();
  // "… is not a command. Here is what /fleet can do:" is followed by the help itself: a "Try:
  // /fleet help" between the colon and the list would only repeat it.
  const helpFollows =
    error.showHelp === true &&
    help !== undefined &&
    error.problem.code === "unknownSubcommand" &&
    error.problem.suggestion === undefined;
  if (helpFollows) return { text: message, blocks: [section(`:warning: ${message}`), ...sectionsOf(help)] };
  const blocks: KnownBlock[] = [section(`:warning: ${message}`), section(`${tryWord} ${example}`)];
  if (error.showHelp && help) blocks.push({ type: "divider" }, ...sectionsOf(help));
  return { text: `${message} ${tryWord} ${example}`, blocks };
}

function section(text: string): KnownBlock {
  return { type: "section", text: { type: "mrkdwn", text } };
}
