import type { KnownBlock, ModalView, PlainTextOption, View } from "@slack/types";
import { duration, type Language, messages, time } from "../../i18n/index.js";
import type { TaskError, TaskErrorCode, TaskProgress, TaskRecord } from "../../tasks/task.js";
import { ACTIONS, INPUTS, VIEWS } from "../actionIds.js";
import { formatUit } from "./etransportText.js";
import type { SlackMessage } from "./message.js";
import { ECHO_MAX, userCode, userText } from "./text.js";
import { modalReportChoices } from "./vehicleData.js";

const plain = (text: string) => ({ type: "plain_text" as const, text, emoji: true });
const mrkdwn = (text: string) => ({ type: "mrkdwn" as const, text });
const section = (text: string, blockId?: string): KnownBlock => ({
  type: "section",
  ...(blockId ? { block_id: blockId } : {}),
  text: mrkdwn(text),
});
const context = (text: string): KnownBlock => ({ type: "context", elements: [mrkdwn(text)] });

/** Splits long mrkdwn into sections of at most `limit` characters, at line breaks. */
export function sectionsOf(text: string, limit = 2900): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  let current = "";
  for (const line of text.split("\n")) {
    const piece = line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
    if (current && current.length + piece.length + 1 > limit) {
      blocks.push(section(current));
      current = "";
    }
    current = current ? `${current}\n${piece}` : piece;
  }
  if (current) blocks.push(section(current));
  return blocks;
}

/** `title`: the message's text for notifications (help.title in the reader's language). */
export function helpMessage(help: string, intro: string | undefined, title: string): SlackMessage {
  return {
    text: title,
    blocks: [...(intro ? [section(intro)] : []), ...sectionsOf(help)],
  };
}

/** At most this many vehicle problems are listed; the rest are counted. */
const PROBLEMS_SHOWN = 5;

/**
 * Vehicles that were not found, as plain sentences naming what the user typed (with backticks):
 * each escaped and cut, a few listed and the rest counted, so any number of them fits a section.
 */
export function vehicleProblemsMrkdwn(problems: readonly string[], language: Language): string {
  const shown = problems.slice(0, PROBLEMS_SHOWN).map((p) => userText(p, 400));
  const more = problems.length - shown.length;
  return [...shown, ...(more > 0 ? [messages(language).common.andMore(more)] : [])].join("\n");
}

export function noticeMessage(text: string, detail?: string): SlackMessage {
  return { text, blocks: [section(text), ...(detail ? [context(detail)] : [])] };
}

/**
 * "Queued: position 3, about 1 min" / "7/20 requests, about 6 min left", with a Cancel button.
 * `what`: the task's description (describeTask), in `language`, the task's.
 */
export function progressMessage(
  what: string,
  progress: TaskProgress,
  nowMs: number,
  language: Language,
): SlackMessage {
  const text = `:hourglass_flowing_sand: ${what}: ${progressPhrase(progress, nowMs, language)}`;
  return {
    text,
    blocks: [
      {
        type: "section",
        block_id: `progress-${progress.taskId.slice(0, 8)}`,
        text: mrkdwn(`${text}\n_${pacingNote(progress.slotMs, language)}_`),
        accessory: {
          type: "button",
          action_id: ACTIONS.cancelTask,
          text: plain(messages(language).tasks.cancel()),
          value: progress.taskId,
        },
      },
    ],
  };
}

/** Where a task stands, in words: "next in line, about 30 s", "position 3 in the queue, …", "2/5 requests, …". */
export function progressPhrase(progress: TaskProgress, nowMs: number, language: Language): string {
  const t = messages(language).tasks;
  const eta =
    progress.expectedFinishAt === undefined ? undefined : Math.max(0, progress.expectedFinishAt - nowMs);
  // No call left to make (answered from the cached vehicle list): no wait to announce.
  const noCalls = progress.total <= progress.done;
  const wait = eta === undefined || noCalls ? undefined : waitText(eta, language);
  const about = wait === undefined ? "" : `, ${progress.done > 0 ? t.waitLeft({ wait }) : wait}`;
  // Before the first call the total is not known yet (a report plans its calls once it has
  // the vehicle list): the place in the queue is what the user can rely on.
  if (noCalls) return t.answeringNow();
  if (progress.done > 0) return `${t.requestsDone({ done: progress.done, total: progress.total })}${about}`;
  if (progress.position !== undefined && progress.position > 0)
    return `${t.positionInQueue({ position: progress.position + 1 })}${about}`;
  return `${t.nextInLine()}${about}`;
}

/** Why the wait: the account's real spacing (FLEET_MIN_INTERVAL_MS), not a fixed 30 s. */
export function pacingNote(slotMs: number | undefined, language: Language): string {
  const t = messages(language).tasks;
  if (slotMs === undefined) return t.pacingUnknown();
  const seconds = Math.max(1, Math.round(slotMs / 1000));
  return seconds % 60 === 0 && seconds >= 60 ? t.pacingMinutes(seconds / 60) : t.pacingSeconds(seconds);
}

/**
 * "about 12 s", "about 3 min", "about 1 h 5 min" (`duration` of format.ts); "under a second"
 * below one: whole seconds would call a 40 ms lookup "about 1 s", 25 times its length.
 */
function waitText(ms: number, language: Language): string {
  const t = messages(language).tasks;
  return ms < 1000 ? t.waitUnderSecond() : t.waitAbout({ duration: duration(language, ms) });
}

/**
 * What a user reads of a task's failure, from its code and parameters (src/tasks/failures.ts),
 * as plain text. A row stored before codes holds its English `message`: shown as it is.
 */
export function taskErrorText(error: TaskError | undefined, language: Language): string {
  const t = messages(language).tasks;
  if (!error) return t.failedDefault();
  if (error.code === undefined) return error.message ?? t.failedDefault();
  const p = error.params ?? {};
  const text = (key: string): string => {
    const value = p[key];
    return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
  };
  const amount = (key: string): number => (typeof p[key] === "number" ? (p[key] as number) : 0);
  const code = error.code as TaskErrorCode;
  switch (code) {
    case "etransport": {
      const parameters = Array.isArray(p.parameters)
        ? p.parameters.filter((x): x is string => typeof x === "string").map(formatUit)
        : [];
      return messages(language).etransport.failure(text("errorCode"), parameters);
    }
    case "internal":
      return t.internal();
    case "credentials":
      return p.workspace === true
        ? t.credentialsWorkspace({ username: text("username") })
        : t.credentialsUser({ username: text("username") });
    case "rule-max-vehicles":
      return t.ruleMaxVehicles({ endpoint: text("endpoint"), max: amount("max"), given: amount("given") });
    case "rule-max-period":
      return t.ruleMaxPeriod({ endpoint: text("endpoint"), days: amount("days") });
    // Rows stored before rules carried a subject.
    case "rule-period-order":
      return ruleText("period-order", "period", language);
    case "rule-empty-list":
      return ruleText("empty-list", "vehicles", language);
    case "rule-min-stationary-margin":
      return t.ruleStopMargin();
    case "rule":
      return ruleText(text("rule"), text("subject"), language);
    case "bad-request":
      return text("reasons") ? t.badRequest({ reasons: text("reasons") }) : t.badRequestBare();
    case "unauthorized-login":
      return t.unauthorizedLogin();
    case "unauthorized-password-changed":
      return t.unauthorizedPasswordChanged();
    case "unauthorized-expired":
      return t.unauthorizedExpired();
    case "unauthorized-vehicles":
      return t.unauthorizedVehicles();
    case "unauthorized-access":
      return t.unauthorizedAccess();
    case "rate-limited":
      return t.rateLimited();
    case "application":
      return text("reasons") ? t.application({ reasons: text("reasons") }) : t.applicationBare();
    case "transport-timeout":
      return t.transportTimeout();
    case "transport-network":
      return t.transportNetwork();
    case "transport-http":
      return t.transportHttp();
    case "transport-malformed":
      return t.transportMalformed();
    default:
      // A code of a later version read by an older one: its English words if it kept any.
      return error.message ?? t.failedDefault();
  }
}

/**
 * A request rule fleetbot would not break, by rule and subject (RequestRuleError). A rule without
 * words of its own (a later version's, or a row stored before subjects) says its code.
 */
function ruleText(rule: string, subject: string, language: Language): string {
  const t = messages(language).tasks;
  if (rule === "invalid-vehicle-id") return t.ruleWholeIds({ subject: "vehicles" });
  if (rule === "invalid-status") return t.ruleWholeIds({ subject: "statuses" });
  if (subject === "") return t.ruleOther({ rule });
  switch (rule) {
    case "required":
      return t.ruleRequired({ subject });
    case "invalid-date":
      return t.ruleInvalidDate({ subject });
    case "period-order":
      return t.ruleOrder({ subject });
    case "empty-list":
      return t.ruleEmptyListOf({ subject });
    case "empty-value":
      return t.ruleEmptyValue({ subject });
    case "invalid-paging":
      return t.ruleInvalidPaging({ subject });
    default:
      return t.ruleOther({ rule });
  }
}

/** `what` is mrkdwn (describeTask); the error's text is plain text. */
export function failureMessage(what: string, error: TaskError | undefined, language: Language): SlackMessage {
  const t = messages(language).tasks;
  const message = userText(taskErrorText(error, language), 2000);
  const support = error?.correlationId ? t.supportId({ id: userCode(error.correlationId) }) : undefined;
  return {
    text: t.failed({ what, message }),
    blocks: [
      section(`:x: ${t.failed({ what: `*${what}*`, message })}`),
      ...(support ? [context(support)] : []),
    ],
  };
}

/** A cancelled task's answer; `by` (a Slack user id) when someone cancelled it with its Cancel button. */
export function cancelledMessage(what: string, language: Language, by?: string): SlackMessage {
  const t = messages(language).tasks;
  return noticeMessage(
    `:no_entry_sign: ${by ? t.cancelledBy({ what, user: `<@${by}>` }) : t.cancelled({ what })}`,
    t.cancelledDetail(),
  );
}

/** Block ids of /fleet queue's entries start with this (a Cancel there refreshes the queue). */
export const QUEUE_ENTRY_BLOCK = "queue-";

export interface QueueEntry {
  task: TaskRecord;
  /** mrkdwn, user text escaped and cut (describeTask). */
  description: string;
  progress?: TaskProgress;
}

/** A Slack time token (the reader's zone) with its fallback in `zone`: "14:05". */
function slackTime(ms: number, zone: string, language: Language): string {
  return `<!date^${Math.floor(ms / 1000)}^{time}|${time(language, ms, zone)}>`;
}

/** The zone a task was asked in (its parameters' `timeZone`), for a time's fallback text. */
function zoneOfTask(task: TaskRecord): string {
  const params = task.params;
  return typeof params === "object" &&
    params !== null &&
    "timeZone" in params &&
    typeof params.timeZone === "string"
    ? params.timeZone
    : "UTC";
}

/**
 * /fleet queue: the account's waiting and running tasks, each with a Cancel button. `entries` are
 * the first ones (at most 20 are shown); `total` counts them all. In the reader's `language`.
 */
export function queueMessage(
  account: string,
  entries: QueueEntry[],
  nowMs: number,
  language: Language,
  total = entries.length,
): SlackMessage {
  const m = messages(language);
  const t = m.tasks;
  const name = userText(account, ECHO_MAX);
  if (entries.length === 0) return noticeMessage(t.queueEmpty({ account: name }));
  const shown = entries.slice(0, 20);
  const title = t.queueTitle({ account: name, total });
  const blocks: KnownBlock[] = [section(title)];
  for (const entry of shown) {
    const p = entry.progress;
    const eta =
      p?.expectedFinishAt === undefined
        ? ""
        : `, ${waitText(Math.max(0, p.expectedFinishAt - nowMs), language)}`;
    const state = p
      ? `${t.queueEntryState({ state: m.help.homeTaskState(p.state), done: p.done, total: p.total })}${eta}`
      : m.help.homeTaskState(entry.task.state);
    const asked = t.queueAskedBy({
      user: `<@${entry.task.slackUser ?? "unknown"}>`,
      time: slackTime(entry.task.createdAt, zoneOfTask(entry.task), language),
    });
    blocks.push({
      type: "section",
      block_id: `${QUEUE_ENTRY_BLOCK}${entry.task.id.slice(0, 12)}`,
      text: mrkdwn(`*${entry.description}* (${state})\n${asked}`),
      accessory: {
        type: "button",
        action_id: ACTIONS.cancelTask,
        text: plain(t.cancel()),
        value: entry.task.id,
      },
    });
  }
  if (total > shown.length) blocks.push(context(m.common.andMore(total - shown.length)));
  blocks.push({
    type: "actions",
    elements: [
      { type: "button", action_id: ACTIONS.refreshQueue, text: plain(t.queueRefresh()), value: "refresh" },
    ],
  });
  return { text: title.replaceAll("*", ""), blocks };
}

/**
 * The login form, in the user's `language`. `refused`: the fleet service did not accept the last
 * attempt. Slack shows field errors only in the ack of a submission (response_action "errors",
 * within 3 s), and the login check waits for a slot of the account, so the answer comes later
 * through views.update: the form comes back with the user name kept and the refusal written under
 * the password field (its hint), the closest Slack allows to an inline error.
 */
export function loginModal(
  privateMetadata: string,
  language: Language,
  options: { error?: string; refused?: { username: string; reason: string }; forWorkspace?: boolean } = {},
): ModalView {
  const t = messages(language).account;
  const { error, refused, forWorkspace = false } = options;
  return {
    type: "modal",
    callback_id: VIEWS.login,
    private_metadata: privateMetadata,
    title: plain((forWorkspace ? t.loginTitleWorkspace() : t.loginTitle()).slice(0, 24)),
    submit: plain(t.loginSubmit()),
    close: plain(messages(language).tasks.cancel()),
    blocks: [
      section(forWorkspace ? t.loginIntroWorkspace() : t.loginIntro()),
      ...(error ? [section(`:warning: ${error}`)] : []),
      {
        type: "input",
        block_id: INPUTS.loginUsername.block,
        label: plain(t.loginUsername()),
        element: {
          type: "plain_text_input",
          action_id: INPUTS.loginUsername.action,
          max_length: 200,
          ...(refused ? { initial_value: refused.username.slice(0, 200) } : {}),
        },
      },
      {
        type: "input",
        block_id: INPUTS.loginPassword.block,
        label: plain(t.loginPassword()),
        hint: plain(
          refused ? t.loginRefusedHint({ reason: refused.reason }).slice(0, 2000) : t.loginPasswordHint(),
        ),
        element: { type: "plain_text_input", action_id: INPUTS.loginPassword.action, max_length: 200 },
      },
    ],
  };
}

/** A modal that only says something (login checking, linked, failed); its Close in `language`. */
export function statusModal(
  title: string,
  text: string,
  callbackId: string = VIEWS.login,
  language: Language,
): ModalView {
  return {
    type: "modal",
    callback_id: callbackId,
    title: plain(title.slice(0, 24)),
    close: plain(messages(language).common.close()),
    blocks: [section(text)],
  };
}

export interface ReportModalPrefill {
  report?: string;
  vehicles?: PlainTextOption[];
  fromDateTime?: number;
  toDateTime?: number;
  minMinutes?: number;
}

/**
 * /fleet report: choose report, vehicles (searched from the cached list) and period.
 * `examplePlate`: one of the account's plates, for the placeholder (a made-up one finds nothing).
 */
export function reportModal(
  privateMetadata: string,
  prefill: ReportModalPrefill = {},
  examples: { examplePlate?: string | undefined } = {},
  language: Language,
): ModalView {
  const r = messages(language).reports;
  const choices = modalReportChoices(language);
  const choice = choices.find((c) => c.value === prefill.report);
  const toOption = (c: { value: string; label: string }): PlainTextOption => ({
    text: plain(c.label),
    value: c.value,
  });
  return {
    type: "modal",
    callback_id: VIEWS.report,
    private_metadata: privateMetadata,
    title: plain(r.modalTitle()),
    submit: plain(r.modalRun()),
    close: plain(r.modalCancel()),
    blocks: [
      {
        type: "input",
        block_id: INPUTS.reportKind.block,
        label: plain(r.modalReport()),
        element: {
          type: "static_select",
          action_id: INPUTS.reportKind.action,
          options: choices.map(toOption),
          ...(choice ? { initial_option: toOption(choice) } : {}),
        },
      },
      {
        type: "input",
        block_id: INPUTS.reportVehicles.block,
        label: plain(r.modalVehicles()),
        hint: plain(r.modalVehiclesHint()),
        element: {
          type: "multi_external_select",
          action_id: INPUTS.reportVehicles.action,
          min_query_length: 0,
          ...(examples.examplePlate
            ? { placeholder: plain(r.modalExample({ plate: examples.examplePlate })) }
            : {}),
          max_selected_items: 100,
          ...(prefill.vehicles && prefill.vehicles.length > 0 ? { initial_options: prefill.vehicles } : {}),
        },
      },
      {
        type: "input",
        block_id: INPUTS.reportFrom.block,
        label: plain(r.modalFrom()),
        optional: true,
        hint: plain(r.modalFromHint()),
        element: {
          type: "datetimepicker",
          action_id: INPUTS.reportFrom.action,
          ...(prefill.fromDateTime ? { initial_date_time: prefill.fromDateTime } : {}),
        },
      },
      {
        type: "input",
        block_id: INPUTS.reportTo.block,
        label: plain(r.modalTo()),
        optional: true,
        hint: plain(r.modalToHint()),
        element: {
          type: "datetimepicker",
          action_id: INPUTS.reportTo.action,
          ...(prefill.toDateTime ? { initial_date_time: prefill.toDateTime } : {}),
        },
      },
      {
        type: "input",
        block_id: INPUTS.reportMinMinutes.block,
        label: plain(r.modalMinMinutes()),
        optional: true,
        element: {
          type: "number_input",
          is_decimal_allowed: false,
          min_value: "1",
          max_value: "1440",
          action_id: INPUTS.reportMinMinutes.action,
          ...(prefill.minMinutes ? { initial_value: String(prefill.minMinutes) } : {}),
        },
      },
    ],
  };
}

export interface HomeFacts {
  /** The reader's language: every word of the tab is in it. */
  language: Language;
  /** mrkdwn: which fleet account the reader acts as (the `help` section's `homeAccount…`). */
  accountLine: string;
  linked: boolean;
  queue: QueueEntry[];
  help: string;
  /** Where to get help, and what uninstalling deletes (the App Home's last line). */
  support?: string;
}

export function homeView(facts: HomeFacts, nowMs: number): View {
  const t = messages(facts.language).help;
  const blocks: KnownBlock[] = [
    { type: "header", text: plain("fleetbot") },
    section(facts.accountLine),
    {
      type: "actions",
      elements: [
        facts.linked
          ? {
              type: "button",
              action_id: ACTIONS.homeLogout,
              text: plain(t.homeUnlink()),
              value: "logout",
            }
          : {
              type: "button",
              action_id: ACTIONS.homeLogin,
              text: plain(t.homeLink()),
              value: "login",
              style: "primary",
            },
      ],
    },
    { type: "divider" },
    section(
      facts.queue.length === 0
        ? t.homeNoRequests()
        : `${t.homeRequests()}\n${facts.queue
            .slice(0, 10)
            .map((e) => {
              const left =
                e.progress?.expectedFinishAt === undefined ? undefined : e.progress.expectedFinishAt - nowMs;
              const eta = left === undefined ? "" : `, ${waitText(left, facts.language)}`;
              return `• ${e.description} (${t.homeTaskState(e.task.state)}${eta})`;
            })
            .join("\n")}`,
    ),
    { type: "divider" },
    ...sectionsOf(facts.help).slice(0, 20),
    ...(facts.support ? [{ type: "divider" } as const, context(facts.support)] : []),
  ];
  return { type: "home", blocks };
}
