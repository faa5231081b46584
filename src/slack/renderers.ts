import { parseTransportView, type TransportView } from "../etransport/types.js";
import { fuelCsv, refillsCsv, routeCsv, routeGpx, stopsCsv, temperatureChartPng } from "../reports/index.js";
import type { AccountLinkResult } from "../tasks/handlers/accountLink.js";
import type { TransportActionOutcome, TransportActionParams } from "../tasks/handlers/transportActions.js";
import type {
  TransportFindParams,
  TransportFindResult,
  TransportListParams,
  TransportListResult,
  TransportRemoveResult,
  TransportSaveParams,
  TransportSaveResult,
} from "../tasks/handlers/transports.js";
import type { VehicleReportParams, VehicleReportResult } from "../tasks/handlers/vehicleData.js";
import type { TaskRecord } from "../tasks/task.js";
import { VIEWS } from "./actionIds.js";
import type { OutgoingFile, Rendered } from "./delivery.js";
import { cancelledMessage, failureMessage, noticeMessage, statusModal } from "./views/common.js";
import {
  removeConfirmationMessage,
  transportActionResultMessage,
  transportCard,
  transportListMessage,
} from "./views/etransport.js";
import { transportModal } from "./views/etransportModal.js";
import {
  fuelMessage,
  positionCard,
  refillsMessage,
  routeMessage,
  stopsMessage,
  temperatureMessage,
  vehicleListMessage,
} from "./views/vehicleData.js";

const REPORT_TITLES: Record<VehicleReportParams["report"], string> = {
  vehicles: "Vehicle list",
  where: "Last position",
  route: "Route",
  stops: "Stops report",
  fuel: "Fuel report",
  refills: "Refills report",
  temps: "Temperature report",
};

/** One line saying what a task is, for progress messages and the queue. */
export function describeTask(task: TaskRecord): string {
  const params = (task.params ?? {}) as Partial<VehicleReportParams> & {
    action?: string;
    uits?: string[];
    username?: string;
  };
  switch (task.kind) {
    case "vehicle-report": {
      const title = REPORT_TITLES[params.report ?? "vehicles"] ?? "Report";
      const vehicles = (params.refs ?? []).map((r) => r.raw).join(", ");
      return `${title}${vehicles ? ` for ${vehicles}` : ""}${params.period ? `, ${params.period.label}` : ""}`;
    }
    case "transport-action":
      return `${capitalise(params.action ?? "act on")} ${(params.uits ?? []).join(", ")}`;
    case "account-link":
      return `Checking the fleet account ${params.username ?? ""}`.trim();
    case "transport-list":
      return "Transport list";
    case "transport-find":
      return `Looking up ${(task.params as Partial<TransportFindParams>).uit ?? "the transport"}`;
    case "transport-save": {
      const save = task.params as Partial<TransportSaveParams>;
      return `${save.transportUId ? "Updating" : "Creating"} transport ${save.draft?.codeUit ?? ""}`.trim();
    }
    case "transport-remove":
      return `Removing ${(task.params as { uit?: string }).uit ?? "the transport"}`;
    default:
      return task.kind;
  }
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export interface RenderContext {
  now(): number;
  /** A stored task by id (an action re-renders the list it was clicked in). */
  task?(id: string): TaskRecord | undefined;
  /** Keeps a list's stored result current after an action, so the next click starts from it. */
  updateResult?(id: string, result: unknown): void;
  /** Zone of the fleet service's local dates, named in reports built from them. */
  companyTimeZone: string;
}

/** The message (and files) that answer a finished task; `page` for paginated answers. */
export async function renderTask(task: TaskRecord, context: RenderContext, page = 0): Promise<Rendered> {
  const what = describeTask(task);
  if (task.state === "cancelled") return { message: cancelledMessage(what) };
  if (task.state === "failed") return { message: failureMessage(what, task.error) };
  switch (task.kind) {
    case "vehicle-report":
      return renderVehicleReport(task, task.result as VehicleReportResult, context, page);
    case "account-link": {
      const result = task.result as AccountLinkResult;
      return {
        message: result.linked
          ? noticeMessage(
              `:white_check_mark: Linked: your commands now run as the fleet account *${result.username}*.`,
            )
          : noticeMessage(`:x: ${result.reason}`, "Try again with /fleet login."),
      };
    }
    case "transport-list": {
      const p = task.params as TransportListParams;
      const result = task.result as TransportListResult;
      return { message: listMessage(task.id, p, result.transports, result.totalRecords) };
    }
    case "transport-action":
      return renderTransportAction(task, context);
    case "transport-find":
      return renderTransportFind(task);
    case "transport-save": {
      const p = task.params as TransportSaveParams;
      const result = task.result as TransportSaveResult;
      const verb = p.transportUId ? "updated" : "created";
      if (!result.saved)
        return {
          message: noticeMessage(`:x: The fleet service did not confirm that the transport was ${verb}.`),
        };
      const card = result.transport ? transportCard(result.transport, { timeZone: p.timeZone }) : [];
      const text = `:white_check_mark: Transport ${p.draft.codeUit ?? ""} ${verb}${result.alreadyThere ? " (it was already there: nothing sent twice)" : ""}.`;
      return { message: { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }, ...card] } };
    }
    case "transport-remove": {
      const result = task.result as TransportRemoveResult;
      return {
        message: noticeMessage(
          result.removed
            ? `:wastebasket: Transport ${result.uit} removed. Its GPS transmission to the tax authority stopped.`
            : `:x: The fleet service did not confirm the removal of ${result.uit}.`,
        ),
      };
    }
    default:
      return { message: noticeMessage(`${what}: done.`) };
  }
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

/** Replaces transports of a list by their state after an action (matched by uId). */
export function mergeTransports(
  list: readonly TransportView[],
  after: readonly TransportView[],
): TransportView[] {
  const updated = new Map(after.map((t) => [t.uId, t]));
  return list.map((t) => updated.get(t.uId) ?? t);
}

function renderTransportAction(task: TaskRecord, context: RenderContext): Rendered {
  const p = task.params as TransportActionParams;
  const outcome = task.result as TransportActionOutcome;
  const after = outcome.after
    .map((t) => parseTransportView(t))
    .filter((t): t is TransportView => t !== undefined);
  const list = p.listTaskId ? context.task?.(p.listTaskId) : undefined;
  if (list?.state === "done") {
    // The click came from a list: show that list again, the acted-on cards in their new state.
    const listParams = list.params as TransportListParams;
    const listResult = list.result as TransportListResult;
    const merged = mergeTransports(listResult.transports, after);
    context.updateResult?.(list.id, { ...listResult, transports: merged });
    const message = listMessage(list.id, listParams, merged, listResult.totalRecords);
    const summary = transportActionResultMessage(p.action, outcome.results, [], { timeZone: p.timeZone });
    return {
      message: {
        text: `${summary.text}\n${message.text}`,
        blocks: [...summary.blocks.slice(0, 3), ...message.blocks].slice(0, 50),
      },
    };
  }
  return {
    message: transportActionResultMessage(p.action, outcome.results, after, { timeZone: p.timeZone }),
  };
}

function renderTransportFind(task: TaskRecord): Rendered {
  const p = task.params as TransportFindParams;
  const transport = (task.result as TransportFindResult).transport;
  if (!transport) {
    const text = `No transport with UIT ${p.uit} is visible to your fleet account. Check the code, or list them: /etransport list all ${p.uit.slice(0, 4)}`;
    return {
      message: noticeMessage(`:warning: ${text}`),
      view: statusModal("Transport not found", text, VIEWS.transportEdit),
    };
  }
  if (p.purpose === "edit") {
    const finished = transport.statusId === 3 || transport.statusId === 4;
    if (finished) {
      const text = `Transport ${p.uit} is finished (${transport.statusId === 3 ? "completed" : "auto completed"}): it can no longer be modified.`;
      return {
        message: noticeMessage(`:no_entry: ${text}`),
        view: statusModal("Cannot edit", text, VIEWS.transportEdit),
      };
    }
    return {
      message: noticeMessage(`Editing transport ${p.uit}.`),
      view: transportModal({
        mode: "edit",
        vehicles: undefined,
        initial: transport,
        userTimeZone: p.timeZone,
        privateMetadata: { transportUId: transport.uId, uit: transport.codeUit },
      }),
    };
  }
  if (p.purpose === "remove")
    return { message: removeConfirmationMessage(transport, { timeZone: p.timeZone }) };
  return {
    message: { text: `Transport ${p.uit}`, blocks: transportCard(transport, { timeZone: p.timeZone }) },
  };
}

async function renderVehicleReport(
  task: TaskRecord,
  result: VehicleReportResult,
  context: RenderContext,
  page: number,
): Promise<Rendered> {
  const token = task.id;
  const options = { companyTimeZone: context.companyTimeZone };
  switch (result.kind) {
    case "resolution":
      return {
        message: noticeMessage(
          `:warning: ${result.problems.join("\n")}`,
          "Vehicles are named by plate (B-123-ABC), name, or #id. /fleet vehicles lists them.",
        ),
      };
    case "vehicles":
      return { message: vehicleListMessage(result.report, page, token, options) };
    case "where":
      return { message: positionCard(result.report, context.now(), options) };
    case "route": {
      const plate = safeName(result.report.vehicle.plate);
      const files: OutgoingFile[] = [
        {
          filename: `route-${plate}.gpx`,
          title: `Route ${result.report.vehicle.plate} (GPX)`,
          content: routeGpx(result.report),
        },
        {
          filename: `route-${plate}.csv`,
          title: `Route ${result.report.vehicle.plate} (CSV)`,
          content: routeCsv(result.report),
        },
      ];
      return { message: routeMessage(result.report, options), files: page === 0 ? files : [] };
    }
    case "stops":
      return {
        message: stopsMessage(result.report, page, token, options),
        files:
          page === 0
            ? [{ filename: "stops.csv", title: "Stops (CSV)", content: stopsCsv(result.report) }]
            : [],
      };
    case "fuel":
      return {
        message: fuelMessage(result.report, page, token, options),
        files:
          page === 0
            ? [{ filename: "fuel.csv", title: "Fuel consumption (CSV)", content: fuelCsv(result.report) }]
            : [],
      };
    case "refills":
      return {
        message: refillsMessage(result.report, options),
        files: [
          {
            filename: `refills-${safeName(result.report.vehicle.plate)}.csv`,
            title: "Refills (CSV)",
            content: refillsCsv(result.report),
          },
        ],
      };
    case "temps": {
      const files: OutgoingFile[] = [];
      for (const entry of result.report.vehicles.filter((v) => v.sensors.length > 0).slice(0, 3)) {
        files.push({
          filename: `temperatures-${safeName(entry.vehicle.plate)}.png`,
          title: `Temperatures ${entry.vehicle.plate}`,
          content: await temperatureChartPng(result.report, entry.vehicle.vehicleId),
        });
      }
      return {
        message: temperatureMessage(result.report, page, token, options),
        files: page === 0 ? files : [],
      };
    }
  }
}

const safeName = (text: string) => text.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") || "vehicle";
