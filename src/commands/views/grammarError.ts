/**
 * A command that does not parse, in the reader's language: what is wrong (the grammar's problem
 * code and data, src/commands/problems.ts, written from the `grammar` catalogue) and an
 * example that works, in the reader's command words (`/fleet opriri … ieri` for a Romanian reader).
 */
import type { KnownBlock } from "@slack/types";
import { messages } from "../../i18n/catalogue.js";
import type { Language } from "../../i18n/language.js";
import { EXAMPLE_UIT, UIT_LENGTH } from "../../platform/fleet/uit.js";
import { sectionsOf } from "../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../platform/slack/views/message.js";
import { noticeMessage } from "../../platform/slack/views/notice.js";
import { cut, fitMrkdwn, userCode } from "../../platform/slack/views/text.js";
import { resolutionProblemText, vehicleProblemsMrkdwn } from "../../platform/slack/views/vehicleProblems.js";
import { OPTION_EXAMPLES } from "../alerts.js";
import { commandIn, exampleIn } from "../examples.js";
import { MODAL_REPORTS } from "../fleet.js";
import type { GrammarError, GrammarProblem, ProblemOf } from "../types.js";
import { ALERT_CODES } from "../types.js";

/** An example command is fleetbot's own words around at most a few echoes of the user's. */
const EXAMPLE_MAX = 600;
/** At most this many echoes in a list; the rest are counted. */
const LIST_SHOWN = 5;

/** Echoes as inline code, a few listed and the rest counted: "`a`, `b` and 3 more". */
function codeList(texts: readonly string[], language: Language): string {
  const listed = texts
    .slice(0, LIST_SHOWN)
    .map((t) => userCode(t))
    .join(", ");
  const more = texts.length - LIST_SHOWN;
  return more > 0 ? `${listed} ${messages(language).grammar.andMoreShort(more)}` : listed;
}

/** An echo of what was typed, as inline code (escaped and cut). */
const c = (text: string) => userCode(text);
/** A command line in the reader's command words, as inline code. */
const commandCode = (line: string, language: Language) => userCode(commandIn(line, language));

type PeriodProblem = ProblemOf<
  | "notADate"
  | "noSuchMonth"
  | "noSuchDay"
  | "tooFarBack"
  | "notATime"
  | "notAStart"
  | "notAnEnd"
  | "notStarted"
  | "skippedByClocks"
  | "rangeSeparator"
  | "endsBeforeStart"
  | "tooLong"
  | "lastNeedsUnit"
  | "lastNotANumber"
  | "countOutOfRange"
  | "timeNeedsEnd"
  | "notAPeriod"
>;
type ReportProblem = ProblemOf<
  | "optionTwice"
  | "strayWords"
  | "periodFirst"
  | "minNotWhole"
  | "minOutOfRange"
  | "minOnlyForStops"
  | "unknownOption"
  | "oneVehicleNotAll"
  | "oneVehicleMany"
  | "snapshotNoPeriod"
  | "reportAfterWord"
  | "vehicleWithoutSubcommand"
  | "notAVehicleId"
  | "notAVehicle"
  | "vehiclesNotFound"
>;
type CommandProblem = ProblemOf<
  | "notAChannel"
  | "oneChannel"
  | "takesNothing"
  | "unsubscribeOnlyChannel"
  | "notAnAlertCode"
  | "alertOption"
  | "watchOptionWithoutKind"
  | "temperatureNeedsBand"
  | "zoneCommand"
  | "scheduleCommand"
  | "unknownAlertsSubcommand"
  | "oneLanguage"
  | "workspaceLanguageMissing"
  | "notALanguage"
  | "loginTakesNothing"
  | "unknownSubcommand"
  | "notACommand"
>;
type EtransportProblem = ProblemOf<
  "uitLength" | "uitCharacters" | "oneTransport" | "historyNeedsUit" | "historyOne" | "uitWithoutVerb"
>;

/** What is wrong, as mrkdwn in `language` (echoes escaped and cut). */
export function grammarProblemText(problem: GrammarProblem, language: Language): string {
  switch (problem.code) {
    case "notADate":
    case "noSuchMonth":
    case "noSuchDay":
    case "tooFarBack":
    case "notATime":
    case "notAStart":
    case "notAnEnd":
    case "notStarted":
    case "skippedByClocks":
    case "rangeSeparator":
    case "endsBeforeStart":
    case "tooLong":
    case "lastNeedsUnit":
    case "lastNotANumber":
    case "countOutOfRange":
    case "timeNeedsEnd":
    case "notAPeriod":
      return periodProblemText(problem, language);
    case "uitLength":
    case "uitCharacters":
    case "oneTransport":
    case "historyNeedsUit":
    case "historyOne":
    case "uitWithoutVerb":
      return etransportProblemText(problem, language);
    case "notAChannel":
    case "oneChannel":
    case "takesNothing":
    case "unsubscribeOnlyChannel":
    case "notAnAlertCode":
    case "alertOption":
    case "watchOptionWithoutKind":
    case "temperatureNeedsBand":
    case "zoneCommand":
    case "scheduleCommand":
    case "unknownAlertsSubcommand":
    case "oneLanguage":
    case "workspaceLanguageMissing":
    case "notALanguage":
    case "loginTakesNothing":
    case "unknownSubcommand":
    case "notACommand":
      return commandProblemText(problem, language);
    default:
      return reportProblemText(problem, language);
  }
}

/** A period that cannot be read (src/commands/period.ts). */
function periodProblemText(problem: PeriodProblem, language: Language): string {
  const t = messages(language).grammar;
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
  }
}

/** A /fleet report's options and vehicles. */
function reportProblemText(problem: ReportProblem, language: Language): string {
  const t = messages(language).grammar;
  const command = (line: string) => commandCode(line, language);
  switch (problem.code) {
    case "strayWords":
    case "periodFirst":
    case "minNotWhole":
    case "notAVehicleId":
    case "notAVehicle":
      return t[problem.code]({ given: c(problem.given) });
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
  }
}

/** /fleet alerts, language and login, and a command or subcommand that is not one. */
function commandProblemText(problem: CommandProblem, language: Language): string {
  const t = messages(language).grammar;
  const command = (line: string) => commandCode(line, language);
  switch (problem.code) {
    case "notAChannel":
    case "unsubscribeOnlyChannel":
    case "notALanguage":
      return t[problem.code]({ given: c(problem.given) });
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
    case "watchOptionWithoutKind":
      return t.watchOptionWithoutKind({ option: c(problem.option), kind: c(problem.kind) });
    case "temperatureNeedsBand":
      return t.temperatureNeedsBand({ example: c("temp=-25..-15") });
    case "scheduleCommand": {
      const s = messages(language).schedules;
      const given = problem.given ? c(problem.given) : "";
      switch (problem.part) {
        case "time":
          return s.time({ given });
        case "recurrence":
          return s.recurrence({ given });
        case "day":
          return s.day({ given });
        case "report":
          return s.report();
        case "notAReport":
          return s.notAReport({ given });
        default:
          return s.id({ given });
      }
    }
    case "zoneCommand": {
      const given = c(problem.given ?? "");
      switch (problem.problem) {
        case "name":
          return t.zoneName();
        case "nameCharacters":
          return t.zoneNameCharacters({ given });
        case "where":
          return t.zoneWhere({ given });
        case "coordinates":
          return t.zoneCoordinates({ given });
        case "radius":
          return t.zoneRadius({ given });
        default:
          return t.zoneSubcommand({
            given,
            ...(problem.suggestion === undefined ? {} : { suggestion: problem.suggestion }),
          });
      }
    }
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
  }
}

/** /etransport's UITs and arguments. */
function etransportProblemText(problem: EtransportProblem, language: Language): string {
  const t = messages(language).grammar;
  const command = (line: string) => commandCode(line, language);
  switch (problem.code) {
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
    default: {
      const rule = {
        volts: m.ruleVolts,
        idle: m.ruleIdle,
        speed: m.ruleSpeed,
        offline: m.ruleOffline,
        hours: m.ruleHours,
        temp: m.ruleTemp,
        tempfor: m.ruleTempFor,
        zones: m.ruleZones,
      }[problem.option];
      return m.optionWatch({ option, rule: rule(), example: userCode(OPTION_EXAMPLES[problem.option]) });
    }
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
