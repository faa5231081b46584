import { assertNever } from "../assertNever.js";
import { transportStatusName } from "../etransport/state.js";
import { parseTransportView, type TransportView } from "../etransport/types.js";
import { TRANSPORT_STATUS } from "../fleet/schemas.js";
import type { Language } from "../i18n/language.js";
import {
  REPORT_CATALOGUE,
  type ReportOf,
  type TaggedReport,
  type VehicleReportName,
  type VehicleReportResult,
} from "../reports/catalogue.js";
import type { TransportFindResult, TransportListParams } from "../tasks/handlers/transports.js";
import { isTaskKind, type TaskOf, taskOf } from "../tasks/kinds.js";
import type { ResultNotKept, TaskRecord } from "../tasks/task.js";
import { VIEWS } from "./actionIds.js";
import type { Rendered } from "./delivery.js";
import {
  cancelledMessage,
  failureMessage,
  loginModal,
  noticeMessage,
  statusModal,
  vehicleProblemsMrkdwn,
} from "./views/common.js";
import {
  removeConfirmationMessage,
  transportActionResultMessage,
  transportCard,
  transportListMessage,
} from "./views/etransport.js";
import { transportModal } from "./views/etransportModal.js";
import { formatUit } from "./views/etransportText.js";
import type { SlackMessage } from "./views/message.js";
import { ECHO_MAX, userText } from "./views/text.js";
import { REPORT_VIEWS, type ReportViewContext } from "./views/vehicleData.js";

/**
 * One line saying what a task is, for progress messages and the queue, as mrkdwn: what the user
 * typed (vehicles, UITs, a user name) is escaped and cut, so the line stays short and echoes no
 * mention whatever was typed.
 */
export function describeTask(task: TaskRecord): string {
  if (!isTaskKind(task.kind)) return userText(task.kind, ECHO_MAX);
  switch (task.kind) {
    case "vehicle-report": {
      const p = taskOf(task, "vehicle-report")?.params;
      if (!p) return "Report";
      const vehicles = userText(p.refs.map((r) => r.raw).join(", "), VEHICLES_MAX);
      const period = p.period ? `, ${userText(p.period.label, ECHO_MAX)}` : "";
      return `${REPORT_CATALOGUE[p.report].title}${vehicles ? ` for ${vehicles}` : ""}${period}`;
    }
    case "transport-action": {
      const p = taskOf(task, "transport-action")?.params;
      return `${capitalise(p?.action ?? "act on")} ${userText((p?.uits ?? []).map(formatUit).join(", "), VEHICLES_MAX)}`;
    }
    case "account-link":
      return `Checking the fleet account ${userText(taskOf(task, "account-link")?.params.username ?? "", ECHO_MAX)}`.trim();
    case "transport-list":
      return "Transport list";
    case "transport-find":
      return `Looking up ${userText(uitOr(taskOf(task, "transport-find")?.params.uit, "the transport"), ECHO_MAX)}`;
    case "transport-save": {
      const save = taskOf(task, "transport-save")?.params;
      return `${save?.transportUId ? "Updating" : "Creating"} transport ${userText(uitOr(save?.draft.codeUit, ""), ECHO_MAX)}`.trim();
    }
    case "transport-remove":
      return `Removing ${userText(uitOr(taskOf(task, "transport-remove")?.params.uit, "the transport"), ECHO_MAX)}`;
    default:
      return assertNever(task.kind, "task kind");
  }
}

/** What a task whose result the store no longer keeps says instead of its answer. */
export function resultNotKeptText(what: string, notKept: ResultNotKept): string {
  const size = `${(notKept.bytes / 1_048_576).toFixed(1)} MB`;
  return notKept.reason === "too-large"
    ? `:warning: ${what}: done, but its result (${size}) is too large to keep. Ask again for a shorter period or fewer vehicles.`
    : `:hourglass: ${what}: this result is no longer kept (large results are kept a day after their answer). Run the command again to see it.`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
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
  const what = describeTask(task);
  if (task.state === "cancelled" || task.state === "failed") {
    const ending =
      task.state === "cancelled"
        ? cancelledMessage(what, task.reply.cancelledBy)
        : failureMessage(what, task.error);
    // Clicked in the user's list: the list stays, its card no longer "⏳ Starting…", the ending above it.
    const list = task.reply.listStays ? listOfAction(task, context) : undefined;
    return { message: list ? aboveList(ending, list.message) : ending };
  }
  const done = `${what}: done.`;
  if (task.resultNotKept) return { message: noticeMessage(resultNotKeptText(what, task.resultNotKept)) };
  if (!isTaskKind(task.kind)) return { message: noticeMessage(done) };
  switch (task.kind) {
    case "vehicle-report":
      return withResult(taskOf(task, "vehicle-report"), done, (t, result) =>
        renderVehicleReport(t, result, context, page),
      );
    case "account-link":
      return withResult(taskOf(task, "account-link"), done, (t, result) =>
        result.linked
          ? {
              message: noticeMessage(
                t.params.linkAs === "workspace"
                  ? `:white_check_mark: Linked: everyone in this workspace who has not linked their own account now acts as the fleet account *${userText(result.username, ECHO_MAX)}*.`
                  : `:white_check_mark: Linked: your commands now run as the fleet account *${userText(result.username, ECHO_MAX)}*.`,
              ),
            }
          : {
              // The form comes back with the refusal on its password field; the message is for a closed form.
              view: loginModal(
                JSON.stringify({
                  ...(t.reply.channel ? { channel: t.reply.channel } : {}),
                  ...(t.params.linkAs === "workspace" ? { workspace: true } : {}),
                }),
                undefined,
                { username: result.username, reason: result.reason },
                t.params.linkAs === "workspace",
              ),
              message: noticeMessage(
                `:x: ${userText(result.reason, 1000)}`,
                t.params.linkAs === "workspace"
                  ? "Try again with /fleet login workspace."
                  : "Try again with /fleet login.",
              ),
            },
      );
    case "transport-list":
      return withResult(taskOf(task, "transport-list"), done, (t, result) => ({
        message: listMessage(t.id, t.params, result.transports, result.totalRecords),
      }));
    case "transport-action":
      return withResult(taskOf(task, "transport-action"), done, (t) => renderTransportAction(t, context));
    case "transport-find":
      return withResult(taskOf(task, "transport-find"), done, (t, result) => renderTransportFind(t, result));
    case "transport-save":
      return withResult(taskOf(task, "transport-save"), done, (t, result) => {
        const p = t.params;
        const verb = p.transportUId ? "updated" : "created";
        if (!result.saved)
          return {
            message: noticeMessage(`:x: The fleet service did not confirm that the transport was ${verb}.`),
          };
        const card = result.transport ? transportCard(result.transport, { timeZone: p.timeZone }) : [];
        const text = `:white_check_mark: Transport ${userText(uitOr(p.draft.codeUit, ""), ECHO_MAX)} ${verb}${result.alreadyThere ? " (it was already there: nothing sent twice)" : ""}.`;
        return { message: { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }, ...card] } };
      });
    case "transport-remove":
      return withResult(taskOf(task, "transport-remove"), done, (_t, result) => ({
        message: noticeMessage(
          result.removed
            ? `:wastebasket: Transport ${userText(formatUit(result.uit), ECHO_MAX)} removed. Its GPS transmission to the tax authority stopped.`
            : `:x: The fleet service did not confirm the removal of ${userText(formatUit(result.uit), ECHO_MAX)}.`,
        ),
      }));
    default:
      return assertNever(task.kind, "task kind");
  }
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
) {
  return transportListMessage({
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

/** A finished list task's message as it was last stored (an action's "⏳" marks it before the answer). */
export function storedTransportList(task: TaskRecord | undefined): SlackMessage | undefined {
  const list = task?.state === "done" ? taskOf(task, "transport-list") : undefined;
  if (!list?.result) return undefined;
  return listMessage(list.id, list.params, list.result.transports, list.result.totalRecords);
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
  return { list, result: list.result, message: storedTransportList(stored) ?? { text: "", blocks: [] } };
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
  const outcome = task.result ?? { results: [], after: [] };
  const after = outcome.after
    .map((t) => parseTransportView(t))
    .filter((t): t is TransportView => t !== undefined);
  const clicked = listOfAction(task, context);
  if (clicked) {
    // The click came from a list: show that list again, the acted-on cards in their new state.
    const { list, result } = clicked;
    const merged = mergeTransports(result.transports, after);
    const message = listMessage(list.id, list.params, merged, result.totalRecords);
    const summary = transportActionResultMessage(p.action, outcome.results, [], { timeZone: p.timeZone });
    return {
      message: aboveList(summary, message),
      // Delivery stores it once the answer is out, so the list's next click starts from it.
      listUpdate: { taskId: list.id, result: { ...result, transports: merged } },
    };
  }
  return {
    message: transportActionResultMessage(p.action, outcome.results, after, { timeZone: p.timeZone }),
  };
}

function renderTransportFind(task: TaskOf<"transport-find">, result: TransportFindResult): Rendered {
  const p = task.params;
  const transport = result.transport;
  if (!transport) {
    const text = userText(
      `No transport with UIT ${formatUit(p.uit)} is visible to your fleet account. Check the code, or list them: /etransport list all ${p.uit.slice(0, 4)}`,
      1000,
    );
    return {
      message: noticeMessage(`:warning: ${text}`),
      view: statusModal("Transport not found", text, VIEWS.transportEdit),
    };
  }
  if (p.purpose === "edit") {
    if (FINISHED.has(transport.statusId)) {
      const text = userText(
        `Transport ${formatUit(p.uit)} is finished (${transportStatusName(transport.statusId).toLowerCase()}): it can no longer be modified.`,
        1000,
      );
      return {
        message: noticeMessage(`:no_entry: ${text}`),
        view: statusModal("Cannot edit", text, VIEWS.transportEdit),
      };
    }
    return {
      message: noticeMessage(`Editing transport ${userText(formatUit(p.uit), ECHO_MAX)}.`),
      view: transportModal({
        mode: "edit",
        vehicles: undefined,
        initial: transport,
        userTimeZone: p.timeZone,
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
    return { message: removeConfirmationMessage(transport, { timeZone: p.timeZone }) };
  return {
    message: {
      text: `Transport ${userText(formatUit(p.uit), ECHO_MAX)}`,
      blocks: transportCard(transport, { timeZone: p.timeZone }),
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
    return {
      message: noticeMessage(
        `:warning: ${vehicleProblemsMrkdwn(result.problems)}`,
        "Vehicles are named by plate (B-123-ABC), name, or #id. /fleet vehicles lists them.",
      ),
    };
  }
  return renderReport(result, {
    page,
    pageToken: task.id,
    nowMs: context.now(),
    options: { companyTimeZone: context.companyTimeZone },
  });
}

/** A built report through its view (REPORT_VIEWS, keyed like the catalogue). */
function renderReport<N extends VehicleReportName>(
  tagged: TaggedReport<N, ReportOf<N>>,
  context: ReportViewContext,
): Promise<Rendered> | Rendered {
  return REPORT_VIEWS[tagged.kind].render(tagged.report, context);
}
