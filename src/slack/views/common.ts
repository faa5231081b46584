import type { KnownBlock, ModalView, PlainTextOption, View } from "@slack/types";
import { duration, type Language, messages } from "../../i18n/index.js";
import type { TaskError, TaskProgress, TaskRecord } from "../../tasks/task.js";
import { ACTIONS, INPUTS, VIEWS } from "../actionIds.js";
import type { GrammarError } from "../grammar/types.js";
import type { SlackMessage } from "./message.js";
import { ECHO_MAX, fitMrkdwn, userCode, userText } from "./text.js";
import { modalReportChoices } from "./vehicleData.js";
import { slackDate } from "./vehicleFormat.js";

const plain = (text: string) => ({ type: "plain_text" as const, text, emoji: true });
const mrkdwn = (text: string) => ({ type: "mrkdwn" as const, text });
const section = (text: string, blockId?: string): KnownBlock => ({
  type: "section",
  ...(blockId ? { block_id: blockId } : {}),
  text: mrkdwn(text),
});
const context = (text: string): KnownBlock => ({ type: "context", elements: [mrkdwn(text)] });

/** Splits long mrkdwn into sections of at most `limit` characters, at line breaks. */
function sectionsOf(text: string, limit = 2900): KnownBlock[] {
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

export function helpMessage(help: string, intro?: string, title = "fleetbot commands"): SlackMessage {
  return {
    text: title,
    blocks: [...(intro ? [section(intro)] : []), ...sectionsOf(help)],
  };
}

/**
 * A wrong argument: what is wrong and an example that works (only the invoking user sees it).
 * The message is mrkdwn whose echoes are already escaped and cut; the example is plain text.
 */
export function grammarErrorMessage(error: GrammarError, help?: string): SlackMessage {
  const message = fitMrkdwn(error.message, 2900);
  const example = userCode(error.example, EXAMPLE_MAX);
  const blocks: KnownBlock[] = [section(`:warning: ${message}`), section(`Try: ${example}`)];
  if (error.showHelp && help) blocks.push({ type: "divider" }, ...sectionsOf(help));
  return { text: `${message} Try: ${example}`, blocks };
}

/** An example command is fleetbot's own words around at most a few echoes of the user's. */
const EXAMPLE_MAX = 600;

/** At most this many vehicle problems are listed; the rest are counted. */
const PROBLEMS_SHOWN = 5;

/**
 * Vehicles that were not found, as plain sentences naming what the user typed (with backticks):
 * each escaped and cut, a few listed and the rest counted, so any number of them fits a section.
 */
export function vehicleProblemsMrkdwn(problems: readonly string[]): string {
  const shown = problems.slice(0, PROBLEMS_SHOWN).map((p) => userText(p, 400));
  const more = problems.length - shown.length;
  return [...shown, ...(more > 0 ? [`…and ${more} more.`] : [])].join("\n");
}

export function noticeMessage(text: string, detail?: string): SlackMessage {
  return { text, blocks: [section(text), ...(detail ? [context(detail)] : [])] };
}

/** "Queued: position 3, about 1 min" / "7/20 requests, about 6 min left", with a Cancel button. */
export function progressMessage(what: string, progress: TaskProgress, nowMs: number): SlackMessage {
  const text = `:hourglass_flowing_sand: ${what}: ${progressPhrase(progress, nowMs)}`;
  return {
    text,
    blocks: [
      {
        type: "section",
        block_id: `progress-${progress.taskId.slice(0, 8)}`,
        text: mrkdwn(`${text}\n_${pacingNote(progress.slotMs)}_`),
        accessory: {
          type: "button",
          action_id: ACTIONS.cancelTask,
          text: plain("Cancel"),
          value: progress.taskId,
        },
      },
    ],
  };
}

/** Where a task stands, in words: "next in line, about 30 s", "position 3 in the queue, …", "2/5 requests, …". */
export function progressPhrase(progress: TaskProgress, nowMs: number): string {
  const eta =
    progress.expectedFinishAt === undefined ? undefined : Math.max(0, progress.expectedFinishAt - nowMs);
  // No call left to make (answered from the cached vehicle list): no wait to announce.
  const noCalls = progress.total <= progress.done;
  const about = eta === undefined || noCalls ? "" : `, ${formatWait(eta)}${progress.done > 0 ? " left" : ""}`;
  // Before the first call the total is not known yet (a report plans its calls once it has
  // the vehicle list): the place in the queue is what the user can rely on.
  const where = noCalls
    ? "answering now"
    : progress.done > 0
      ? `${progress.done}/${progress.total} request${progress.total === 1 ? "" : "s"}${about}`
      : progress.position !== undefined && progress.position > 0
        ? `position ${progress.position + 1} in the queue${about}`
        : `next in line${about}`;
  return where;
}

/** Why the wait: the account's real spacing (FLEET_MIN_INTERVAL_MS), not a fixed 30 s. */
export function pacingNote(slotMs: number | undefined): string {
  if (slotMs === undefined) return "The fleet service answers one request at a time per account.";
  const seconds = Math.max(1, Math.round(slotMs / 1000));
  const every =
    seconds === 1
      ? "every second"
      : seconds % 60 === 0 && seconds >= 120
        ? `every ${seconds / 60} minutes`
        : seconds === 60
          ? "every minute"
          : `every ${seconds} seconds`;
  return `The fleet service answers one request ${every} per account.`;
}

/**
 * "about 12 s", "about 3 min", "about 1 h 5 min"; "under a second" below one: whole seconds
 * would call a 40 ms lookup "about 1 s", 25 times its length.
 */
function formatWait(ms: number): string {
  if (ms < 1000) return "under a second";
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `about ${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** `what` is mrkdwn (describeTask); the error's message is plain text. */
export function failureMessage(what: string, error: TaskError | undefined): SlackMessage {
  const message = userText(error?.message ?? "The request failed.", 2000);
  const support = error?.correlationId
    ? `For support: correlation id ${userCode(error.correlationId)}`
    : undefined;
  return {
    text: `${what} failed: ${message}`,
    blocks: [section(`:x: *${what}* failed: ${message}`), ...(support ? [context(support)] : [])],
  };
}

/** A cancelled task's answer; `by` (a Slack user id) when someone cancelled it with its Cancel button. */
export function cancelledMessage(what: string, by?: string): SlackMessage {
  return noticeMessage(
    by ? `:no_entry_sign: ${what}: cancelled by <@${by}>.` : `:no_entry_sign: ${what}: cancelled.`,
    "Calls already sent were answered; nothing else was asked.",
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

/**
 * /fleet queue: the account's waiting and running tasks, each with a Cancel button. `entries` are
 * the first ones (at most 20 are shown); `total` counts them all.
 */
export function queueMessage(
  account: string,
  entries: QueueEntry[],
  nowMs: number,
  total = entries.length,
): SlackMessage {
  if (entries.length === 0) {
    return noticeMessage(`Nothing is waiting for the fleet account *${userText(account, ECHO_MAX)}*.`);
  }
  const shown = entries.slice(0, 20);
  const blocks: KnownBlock[] = [
    section(`*Queue of ${userText(account, ECHO_MAX)}*: ${total} request${total === 1 ? "" : "s"}`),
  ];
  for (const entry of shown) {
    const p = entry.progress;
    const eta =
      p?.expectedFinishAt === undefined ? "" : `, ${formatWait(Math.max(0, p.expectedFinishAt - nowMs))}`;
    const state = p ? `${p.state}, ${p.done}/${p.total} requests${eta}` : entry.task.state;
    blocks.push({
      type: "section",
      block_id: `${QUEUE_ENTRY_BLOCK}${entry.task.id.slice(0, 12)}`,
      text: mrkdwn(
        `*${entry.description}* (${state})\nasked by <@${entry.task.slackUser ?? "unknown"}> at ${slackDate(entry.task.createdAt, "{time}")}`,
      ),
      accessory: {
        type: "button",
        action_id: ACTIONS.cancelTask,
        text: plain("Cancel"),
        value: entry.task.id,
      },
    });
  }
  if (total > shown.length) blocks.push(context(`…and ${total - shown.length} more.`));
  blocks.push({
    type: "actions",
    elements: [{ type: "button", action_id: ACTIONS.refreshQueue, text: plain("Refresh"), value: "refresh" }],
  });
  return { text: `Queue of ${userText(account, ECHO_MAX)}: ${total} requests`, blocks };
}

/**
 * The login form. `refused`: the fleet service did not accept the last attempt. Slack shows
 * field errors only in the ack of a submission (response_action "errors", within 3 s), and the
 * login check waits for a slot of the account, so the answer comes later through views.update:
 * the form comes back with the user name kept and the refusal written under the password field
 * (its hint), the closest Slack allows to an inline error.
 */
export function loginModal(
  privateMetadata: string,
  error?: string,
  refused?: { username: string; reason: string },
  forWorkspace = false,
): ModalView {
  return {
    type: "modal",
    callback_id: VIEWS.login,
    private_metadata: privateMetadata,
    title: plain(forWorkspace ? "Workspace account" : "Link fleet account"),
    submit: plain("Link"),
    close: plain("Cancel"),
    blocks: [
      section(
        forWorkspace
          ? "The workspace's fleet-service account: everyone here who has not linked their own acts with its rights. " +
              "The password is checked with a real login, then stored encrypted."
          : "Link your own fleet-service account: fleetbot then acts with your rights. " +
              "The password is checked with a real login, then stored encrypted.",
      ),
      ...(error ? [section(`:warning: ${error}`)] : []),
      {
        type: "input",
        block_id: INPUTS.loginUsername.block,
        label: plain("User name or e-mail"),
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
        label: plain("Password"),
        hint: plain(
          refused
            ? `⚠️ ${refused.reason} Check the password, then Link again.`.slice(0, 2000)
            : "Slack has no password field: this modal is seen only by you.",
        ),
        element: { type: "plain_text_input", action_id: INPUTS.loginPassword.action, max_length: 200 },
      },
    ],
  };
}

/** A modal that only says something (login checking, linked, failed). */
export function statusModal(title: string, text: string, callbackId: string = VIEWS.login): ModalView {
  return {
    type: "modal",
    callback_id: callbackId,
    title: plain(title.slice(0, 24)),
    close: plain("Close"),
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
): ModalView {
  const choices = modalReportChoices();
  const choice = choices.find((c) => c.value === prefill.report);
  const toOption = (c: { value: string; label: string }): PlainTextOption => ({
    text: plain(c.label),
    value: c.value,
  });
  return {
    type: "modal",
    callback_id: VIEWS.report,
    private_metadata: privateMetadata,
    title: plain("Fleet report"),
    submit: plain("Run"),
    close: plain("Cancel"),
    blocks: [
      {
        type: "input",
        block_id: INPUTS.reportKind.block,
        label: plain("Report"),
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
        label: plain("Vehicles"),
        hint: plain("Type part of a plate or name. Route, refills and where take the first vehicle."),
        element: {
          type: "multi_external_select",
          action_id: INPUTS.reportVehicles.action,
          min_query_length: 0,
          ...(examples.examplePlate ? { placeholder: plain(`e.g. ${examples.examplePlate}`) } : {}),
          max_selected_items: 100,
          ...(prefill.vehicles && prefill.vehicles.length > 0 ? { initial_options: prefill.vehicles } : {}),
        },
      },
      {
        type: "input",
        block_id: INPUTS.reportFrom.block,
        label: plain("From"),
        optional: true,
        hint: plain("Empty: today from midnight."),
        element: {
          type: "datetimepicker",
          action_id: INPUTS.reportFrom.action,
          ...(prefill.fromDateTime ? { initial_date_time: prefill.fromDateTime } : {}),
        },
      },
      {
        type: "input",
        block_id: INPUTS.reportTo.block,
        label: plain("To"),
        optional: true,
        hint: plain("Empty: now."),
        element: {
          type: "datetimepicker",
          action_id: INPUTS.reportTo.action,
          ...(prefill.toDateTime ? { initial_date_time: prefill.toDateTime } : {}),
        },
      },
      {
        type: "input",
        block_id: INPUTS.reportMinMinutes.block,
        label: plain("Shortest stop (minutes, stops only)"),
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
              const eta =
                left === undefined
                  ? ""
                  : `, ${left < 1000 ? t.homeEtaNow() : t.homeEta({ duration: duration(facts.language, left) })}`;
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
