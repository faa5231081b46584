import { fuelCsv, refillsCsv, routeCsv, routeGpx, stopsCsv, temperatureChartPng } from "../reports/index.js";
import type { AccountLinkResult } from "../tasks/handlers/accountLink.js";
import type { VehicleReportParams, VehicleReportResult } from "../tasks/handlers/vehicleData.js";
import type { TaskRecord } from "../tasks/task.js";
import type { OutgoingFile, Rendered } from "./delivery.js";
import { cancelledMessage, failureMessage, noticeMessage } from "./views/common.js";
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
      return [title, vehicles && `for ${vehicles}`, params.period?.label].filter(Boolean).join(" ");
    }
    case "transport-action":
      return `${capitalise(params.action ?? "act on")} ${(params.uits ?? []).join(", ")}`;
    case "account-link":
      return `Checking the fleet account ${params.username ?? ""}`.trim();
    default:
      return task.kind;
  }
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export interface RenderContext {
  now(): number;
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
    default:
      return { message: noticeMessage(`${what}: done.`) };
  }
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
