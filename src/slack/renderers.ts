import { assertNever } from "../assertNever.js";
import { parseTransportView, type TransportView } from "../etransport/types.js";
import { TRANSPORT_STATUS } from "../fleet/schemas.js";
import { messages } from "../i18n/catalogue.js";
import { duration, number } from "../i18n/format.js";
import type { Language } from "../i18n/language.js";
import { periodText } from "../i18n/periodText.js";
import {
  DEFAULT_MIN_MINUTES,
  type ReportOf,
  type TaggedReport,
  type VehicleReportName,
  type VehicleReportResult,
} from "../reports/catalogue.js";
import type { AccountLinkResult } from "../tasks/kinds/accountLink.js";
import type { TransportFindResult, TransportListParams } from "../tasks/kinds/transports.js";
import { isTaskKind, type TaskOf, taskOf } from "../tasks/kinds.js";
import type { ResultNotKept, TaskRecord } from "../tasks/task.js";
import { VIEWS } from "./actionIds.js";
import type { Rendered } from "./rendered.js";
import {
  removeConfirmationMessage,
  transportActionResultMessage,
  transportCard,
  transportListMessage,
} from "./views/etransport.js";
import { transportModal } from "./views/etransportModal.js";
import { formatUit, transportStatusText } from "./views/etransportText.js";
import { loginModal } from "./views/loginModal.js";
import type { SlackMessage } from "./views/message.js";
import { noticeMessage } from "./views/notice.js";
import { resolutionMessage } from "./views/reports/resolution.js";
import { statusModal } from "./views/statusModal.js";
import { cancelledMessage, failureMessage } from "./views/taskEnding.js";
import { ECHO_MAX, userText } from "./views/text.js";
import { REPORT_VIEWS, type ReportViewContext } from "./views/vehicleData.js";

/**
 * One line saying what a task is, for progress messages and the queue, as mrkdwn, in `language`
 * (the task's: taskLanguage): what the user typed (vehicles, UITs, a user name) is escaped and
 * cut, so the line stays short and echoes no mention whatever was typed.
 */
export function describeTask(task: TaskRecord, language: Language): string {
  if (!isTaskKind(task.kind)) return userText(task.kind, ECHO_MAX);
  const m = messages(language);
  const t = m.tasks;
  switch (task.kind) {
    case "vehicle-report": {
      const p = taskOf(task, "vehicle-report")?.params;
      if (!p) return t.reportAny();
      // `all` is a command word, not a vehicle: said in the reader's words ("all vehicles", "toate vehiculele").
      const vehicles = userText(
        p.refs.map((r) => (r.type === "all" ? t.allVehicles() : r.raw)).join(", "),
        VEHICLES_MAX,
      );
      const period = p.period ? `, ${userText(periodText(p.period.label, language), ECHO_MAX)}` : "";
      const title = m.reports.title(p.report);
      const shortest =
        p.report === "stops" && p.minMinutes !== undefined && p.minMinutes !== DEFAULT_MIN_MINUTES
          ? `, ${t.stopsAtLeast({ duration: duration(language, p.minMinutes * 60_000) })}`
          : "";
      return `${vehicles ? t.reportFor({ title, vehicles }) : title}${period}${shortest}`;
    }
    case "transport-action": {
      const p = taskOf(task, "transport-action")?.params;
      const uits = userText((p?.uits ?? []).map(formatUit).join(", "), VEHICLES_MAX);
      switch (p?.action) {
        case "start":
          return t.actionStart({ uits });
        case "pause":
          return t.actionPause({ uits });
        case "end":
          return t.actionEnd({ uits });
        default:
          return t.actionAny({ uits });
      }
    }
    case "account-link":
      return t
        .accountCheck({ username: userText(taskOf(task, "account-link")?.params.username ?? "", ECHO_MAX) })
        .trim();
    case "transport-list":
      return t.transportList();
    case "transport-find": {
      const uit = taskOf(task, "transport-find")?.params.uit;
      return uit ? t.transportFind({ uit: userText(formatUit(uit), ECHO_MAX) }) : t.transportFindAny();
    }
    case "transport-save": {
      const save = taskOf(task, "transport-save")?.params;
      const uit = userText(uitOr(save?.draft.codeUit, ""), ECHO_MAX);
      return (save?.transportUId ? t.transportUpdate({ uit }) : t.transportCreate({ uit })).trim();
    }
    case "transport-remove": {
      const uit = taskOf(task, "transport-remove")?.params.uit;
      return uit ? t.transportRemove({ uit: userText(formatUit(uit), ECHO_MAX) }) : t.transportRemoveAny();
    }
    default:
      return assertNever(task.kind, "task kind");
  }
}

/** What a task whose result the store no longer keeps says instead of its answer, in `language`. */
export function resultNotKeptText(what: string, notKept: ResultNotKept, language: Language): string {
  const t = messages(language).tasks;
  const size = `${number(language, notKept.bytes / 1_048_576, { minFractionDigits: 1, maxFractionDigits: 1 })} MB`;
  return notKept.reason === "too-large"
    ? `:warning: ${t.resultTooLarge({ what, size })}`
    : `:hourglass: ${t.resultExpired({ what })}`;
}

/** A UIT in its one display form (dashed in fours), or `fallback` when there is none. */
const uitOr = (uit: string | undefined, fallback: string) => (uit ? formatUit(uit) : fallback);

/** Budget of a task's list of vehicles or UITs in its one-line description. */
const VEHICLES_MAX = 200;

export interface RenderContext {
  now(): number;
  /** A stored task by id (an action re-renders the list it was clicked in). */
  task?(id: string): TaskRecord | undefined;
  /** Zone of the fleet service's local dates, named in reports built from them. */
  companyTimeZone: string;
  /** DEFAULT_LANGUAGE: the language of a task stored before languages (its reply names none). */
  defaultLanguage: Language;
}

/** The language a task is rendered in: the asking user's, resolved when it was asked. */
export function taskLanguage(task: TaskRecord, defaultLanguage: Language): Language {
  return task.reply.language ?? defaultLanguage;
}

/** The message (and files) that answer a finished task; `page` for paginated answers. Pure: writes nothing. */
export async function renderTask(task: TaskRecord, context: RenderContext, page = 0): Promise<Rendered> {
  const language = taskLanguage(task, context.defaultLanguage);
  const what = describeTask(task, language);
  if (task.state === "cancelled" || task.state === "failed") {
    const ending =
      task.state === "cancelled"
        ? cancelledMessage(what, language, task.reply.cancelledBy)
        : failureMessage(what, task.error, language);
    // Clicked in the user's list: the list stays, its card no longer "⏳ Starting…", the ending above it.
    const list = task.reply.listStays ? listOfAction(task, context) : undefined;
    return { message: list ? aboveList(ending, list.message) : ending };
  }
  const done = messages(language).tasks.done({ what });
  if (task.resultNotKept)
    return { message: noticeMessage(resultNotKeptText(what, task.resultNotKept, language)) };
  if (!isTaskKind(task.kind)) return { message: noticeMessage(done) };
  switch (task.kind) {
    case "vehicle-report":
      return withResult(taskOf(task, "vehicle-report"), done, (t, result) =>
        renderVehicleReport(t, result, context, page),
      );
    case "account-link":
      return withResult(taskOf(task, "account-link"), done, (t, result) =>
        renderAccountLink(t, result, language, context.now()),
      );
    case "transport-list":
      return withResult(taskOf(task, "transport-list"), done, (t, result) => ({
        message: listMessage(t.id, t.params, result.transports, result.totalRecords, language),
      }));
    case "transport-action":
      return withResult(taskOf(task, "transport-action"), done, (t) => renderTransportAction(t, context));
    case "transport-find":
      return withResult(taskOf(task, "transport-find"), done, (t, result) =>
        renderTransportFind(t, result, language),
      );
    case "transport-save":
      return withResult(taskOf(task, "transport-save"), done, (t, result) => {
        const p = t.params;
        const e = messages(language).etransport;
        const created = !p.transportUId;
        if (!result.saved) return { message: noticeMessage(e.notSaved({ created })) };
        const card = result.transport
          ? transportCard(result.transport, { timeZone: p.timeZone, language })
          : [];
        const text = e.saved({
          uit: userText(uitOr(p.draft.codeUit, ""), ECHO_MAX),
          created,
          alreadyThere: result.alreadyThere === true,
        });
        return { message: { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }, ...card] } };
      });
    case "transport-remove":
      return withResult(taskOf(task, "transport-remove"), done, (_t, result) => ({
        message: noticeMessage(
          result.removed
            ? messages(language).etransport.removed({ uit: userText(formatUit(result.uit), ECHO_MAX) })
            : messages(language).etransport.notRemovedByService({
                uit: userText(formatUit(result.uit), ECHO_MAX),
              }),
        ),
      }));
    default:
      return assertNever(task.kind, "task kind");
  }
}

/** The link's answer: linked, or the form back with the refusal under its password. */
function renderAccountLink(
  task: TaskOf<"account-link">,
  result: AccountLinkResult,
  language: Language,
  nowMs: number,
): Rendered {
  const t = messages(language).account;
  const forWorkspace = task.params.linkAs === "workspace";
  if (result.linked) {
    const username = userText(result.username, ECHO_MAX);
    return {
      message: noticeMessage(forWorkspace ? t.linkedWorkspace({ username }) : t.linkedUser({ username })),
    };
  }
  if (result.code === "too-many-failures") {
    // No login was sent; the words are the same whether the user name exists or not.
    const text = t.linkTooManyFailures({ wait: retryWait(language, (result.retryAt ?? nowMs) - nowMs) });
    return {
      view: statusModal(forWorkspace ? t.loginTitleWorkspace() : t.loginTitle(), text, undefined, language),
      message: noticeMessage(text),
    };
  }
  const reason = linkRefusalText(result, language);
  return {
    // The form comes back with the refusal on its password field; the message is for a closed form.
    view: loginModal(
      JSON.stringify({
        ...(task.reply.channel ? { channel: task.reply.channel } : {}),
        ...(forWorkspace ? { workspace: true } : {}),
      }),
      language,
      { refused: { username: result.username, reason }, forWorkspace },
    ),
    message: noticeMessage(
      `:x: ${userText(reason, 1000)}`,
      forWorkspace ? t.linkTryAgainWorkspace() : t.linkTryAgain(),
    ),
  };
}

/** How long until an attempt is allowed again, rounded up (never "0 s" while it is not). */
function retryWait(language: Language, ms: number): string {
  const unit = ms < 60_000 ? 1000 : 60_000;
  return duration(language, Math.max(1, Math.ceil(ms / unit)) * unit);
}

/** Why a link was refused, in words: from its code; a row stored before codes keeps its English. */
function linkRefusalText(result: Extract<AccountLinkResult, { linked: false }>, language: Language): string {
  if (result.code === "login" || result.reason === undefined)
    return messages(language).account.linkRefusedLogin();
  return result.reason;
}

/** Renders a typed task that has its result; a row that no longer fits its kind only says it is done. */
async function withResult<T extends { result?: unknown }>(
  task: T | undefined,
  done: string,
  render: (task: T, result: NonNullable<T["result"]>) => Rendered | Promise<Rendered>,
): Promise<Rendered> {
  if (!task || task.result === undefined || task.result === null) return { message: noticeMessage(done) };
  return render(task, task.result);
}

function listMessage(
  listTaskId: string,
  p: TransportListParams,
  transports: TransportView[],
  totalRecords: number,
  language: Language,
) {
  return transportListMessage({
    language,
    transports,
    totalRecords,
    pageIndex: p.pageIndex,
    pageSize: p.pageSize,
    filterLabel: p.filterLabel,
    filter: p.filter,
    search: p.search,
    timeZone: p.timeZone,
    listToken: listTaskId,
  });
}

/**
 * A finished list task's message as it was last stored (an action's "⏳" marks it before the
 * answer), in `language`: the reader's (the clicking user's, or the list task's own).
 */
export function storedTransportList(
  task: TaskRecord | undefined,
  language: Language,
): SlackMessage | undefined {
  const list = task?.state === "done" ? taskOf(task, "transport-list") : undefined;
  if (!list?.result) return undefined;
  return listMessage(list.id, list.params, list.result.transports, list.result.totalRecords, language);
}

/** Stored tasks a task's answer may show (RenderContext.task is asked only for these). */
export function relatedTaskIds(task: TaskRecord): string[] {
  const listTaskId = taskOf(task, "transport-action")?.params.listTaskId;
  return listTaskId ? [listTaskId] : [];
}

/** The list an action was clicked in, when it is still there and of the same account. */
function listOfAction(task: TaskRecord, context: RenderContext) {
  const action = taskOf(task, "transport-action");
  const id = action?.params.listTaskId;
  const stored = id ? context.task?.(id) : undefined;
  // Another account's list is never shown or rewritten (the listener refuses such a click first).
  const list =
    stored?.state === "done" && stored.account === task.account
      ? taskOf(stored, "transport-list")
      : undefined;
  if (!list?.result) return undefined;
  const language = taskLanguage(task, context.defaultLanguage);
  return {
    list,
    result: list.result,
    message: storedTransportList(stored, language) ?? { text: "", blocks: [] },
  };
}

/** A short message above a list, within Slack's 50 blocks. */
function aboveList(notice: SlackMessage, list: SlackMessage): SlackMessage {
  return {
    text: `${notice.text}\n${list.text}`,
    blocks: [...notice.blocks.slice(0, 3), ...list.blocks].slice(0, 50),
  };
}

/** Replaces transports of a list by their state after an action (matched by uId). */
export function mergeTransports(
  list: readonly TransportView[],
  after: readonly TransportView[],
): TransportView[] {
  const updated = new Map(after.map((t) => [t.uId, t]));
  return list.map((t) => updated.get(t.uId) ?? t);
}

/** Transports that can no longer be modified. */
const FINISHED: ReadonlySet<number> = new Set([TRANSPORT_STATUS.completed, TRANSPORT_STATUS.autoCompleted]);

function renderTransportAction(task: TaskOf<"transport-action">, context: RenderContext): Rendered {
  const p = task.params;
  const language = taskLanguage(task, context.defaultLanguage);
  const outcome = task.result ?? { results: [], after: [] };
  const after = outcome.after
    .map((t) => parseTransportView(t))
    .filter((t): t is TransportView => t !== undefined);
  const clicked = listOfAction(task, context);
  if (clicked) {
    // The click came from a list: show that list again, the acted-on cards in their new state.
    const { list, result } = clicked;
    const merged = mergeTransports(result.transports, after);
    const message = listMessage(list.id, list.params, merged, result.totalRecords, language);
    const summary = transportActionResultMessage(p.action, outcome.results, [], {
      timeZone: p.timeZone,
      language,
    });
    return {
      message: aboveList(summary, message),
      // Delivery stores it once the answer is out, so the list's next click starts from it.
      listUpdate: { taskId: list.id, result: { ...result, transports: merged } },
    };
  }
  return {
    message: transportActionResultMessage(p.action, outcome.results, after, {
      timeZone: p.timeZone,
      language,
    }),
  };
}

function renderTransportFind(
  task: TaskOf<"transport-find">,
  result: TransportFindResult,
  language: Language,
): Rendered {
  const p = task.params;
  const e = messages(language).etransport;
  const transport = result.transport;
  if (!transport) {
    const text = userText(e.notFound({ uit: formatUit(p.uit), search: p.uit.slice(0, 4) }), 1000);
    return {
      message: noticeMessage(`:warning: ${text}`),
      view: statusModal(e.notFoundTitle(), text, VIEWS.transportEdit, language),
    };
  }
  if (p.purpose === "edit") {
    if (FINISHED.has(transport.statusId)) {
      const status = transportStatusText(language, transport.statusId).toLocaleLowerCase(language);
      const text = userText(e.finished({ uit: formatUit(p.uit), status }), 1000);
      return {
        message: noticeMessage(`:no_entry: ${text}`),
        view: statusModal(e.cannotEditTitle(), text, VIEWS.transportEdit, language),
      };
    }
    return {
      message: noticeMessage(e.editing({ uit: userText(formatUit(p.uit), ECHO_MAX) })),
      view: transportModal({
        mode: "edit",
        vehicles: undefined,
        initial: transport,
        userTimeZone: p.timeZone,
        language,
        // The channel it was asked in: the edited card is posted there, as the form says.
        // `saved`: the instants as held, which the pickers show to the minute (kept when untouched).
        privateMetadata: {
          transportUId: transport.uId,
          uit: transport.codeUit,
          channel: task.reply.channel,
          saved: {
            validityStartMs: transport.validityStartMs,
            validityEndMs: transport.validityEndMs,
            startMs: transport.startMs,
            endMs: transport.endMs,
          },
        },
      }),
    };
  }
  if (p.purpose === "remove")
    return { message: removeConfirmationMessage(transport, { timeZone: p.timeZone, language }) };
  return {
    message: {
      text: e.transportTitle({ uit: userText(formatUit(p.uit), ECHO_MAX) }),
      blocks: transportCard(transport, { timeZone: p.timeZone, language }),
    },
  };
}

async function renderVehicleReport(
  task: TaskOf<"vehicle-report">,
  result: VehicleReportResult,
  context: RenderContext,
  page: number,
): Promise<Rendered> {
  if (result.kind === "resolution") {
    return { message: resolutionMessage(result.problems, taskLanguage(task, context.defaultLanguage)) };
  }
  return renderReport(result, {
    page,
    pageToken: task.id,
    nowMs: context.now(),
    language: taskLanguage(task, context.defaultLanguage),
    // The asking user's zone: the fallback text of the dates of `where` and `vehicles` (no period).
    options: { companyTimeZone: context.companyTimeZone, timeZone: task.params.timeZone },
  });
}

/** A built report through its view (REPORT_VIEWS, keyed like the catalogue). */
function renderReport<N extends VehicleReportName>(
  tagged: TaggedReport<N, ReportOf<N>>,
  context: ReportViewContext,
): Promise<Rendered> | Rendered {
  return REPORT_VIEWS[tagged.kind].render(tagged.report, context);
}
