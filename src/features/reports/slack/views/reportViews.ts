/**
 * The Slack side of the report catalogue (src/features/reports/catalogue.ts): `REPORT_VIEWS`, for every
 * report whether the report modal offers it and its view (src/features/reports/slack/views/), with the
 * files it sends (src/features/reports/slack/files/). Keyed by the catalogue's names, so a report without a view
 * does not compile.
 */
import type { ReportFile } from "../../../../i18n/en/reports.js";
import type { Language } from "../../../../i18n/language.js";
import type { OutgoingFile } from "../../../../platform/slack/rendered.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { type ReportOf, VEHICLE_REPORTS, type VehicleReportName } from "../../catalogue.js";
import {
  isPrivateVehicle,
  positionWithoutPlace,
  refillsWithoutPrivatePlaces,
  routeWithoutPrivatePlaces,
  stopsWithoutPrivatePlaces,
  vehicleListWithoutPrivatePlaces,
} from "../../privacy.js";
import { fuelCsv, refillsCsv, routeCsv, stopsCsv } from "../files/reportCsv.js";
import { routeGpx } from "../files/routeGpx.js";
import { temperatureChartPng } from "../files/temperatureChart.js";
import { fuelMessage } from "./fuel.js";
import { positionCard, vehicleListMessage } from "./positions.js";
import { refillsMessage } from "./refills.js";
import { words } from "./reportFormat.js";
import { routeMessage } from "./route.js";
import { stopsMessage } from "./stops.js";
import { temperatureMessage } from "./temperatures.js";
import type { VehicleViewOptions } from "./vehicleFormat.js";

/** A report's answer: the message, and the files that go to the user's direct messages. */
export interface ReportAnswer {
  message: SlackMessage;
  files: OutgoingFile[];
}

/** What a report view gets besides the report: the page asked, the task id (page buttons), options. */
export interface ReportViewContext {
  page: number;
  pageToken: string;
  nowMs: number;
  /** The reader's language (the task's: `taskLanguage`), for the message and the files. */
  language: Language;
  /** The rest of the view's options (the language and the instant are the context's). */
  options: Omit<VehicleViewOptions, "language" | "nowMs">;
}

export interface ReportView<N extends VehicleReportName> {
  /** Whether the report modal offers the report. */
  inModal: boolean;
  render(report: ReportOf<N>, context: ReportViewContext): Promise<ReportAnswer> | ReportAnswer;
}

const safeName = (text: string) => text.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") || "vehicle";

/** Files go with the first page only (a page turn must not upload them again). */
const firstPage = (context: ReportViewContext, files: OutgoingFile[]) => (context.page === 0 ? files : []);

/** The view's options with the context's language and present instant. */
const viewOptions = (c: ReportViewContext): VehicleViewOptions => ({
  ...c.options,
  language: c.language,
  nowMs: c.nowMs,
});

/** A file's name and title in the reader's language: "stops.csv" / "opriri.csv", "Stops (CSV)". */
function named(
  c: ReportViewContext,
  file: ReportFile,
  plate: string | undefined,
  extension: string,
): { filename: string; title: string } {
  const m = words(c.language);
  const base = m.fileName(file);
  return {
    filename: plate === undefined ? `${base}.${extension}` : `${base}-${safeName(plate)}.${extension}`,
    title: m.fileTitle(file, plate ?? ""),
  };
}

export const REPORT_VIEWS: { [N in VehicleReportName]: ReportView<N> } = {
  vehicles: {
    inModal: false,
    render: (report, c) => ({
      message: vehicleListMessage(
        vehicleListWithoutPrivatePlaces(report),
        c.page,
        c.pageToken,
        viewOptions(c),
      ),
      files: [],
    }),
  },
  where: {
    inModal: true,
    render: (report, c) => ({
      message: positionCard(positionWithoutPlace(report), c.nowMs, viewOptions(c)),
      files: [],
    }),
  },
  route: {
    inModal: true,
    render: (stored, c) => {
      const report = routeWithoutPrivatePlaces(stored);
      const plate = report.vehicle.plate;
      return {
        message: routeMessage(report, viewOptions(c)),
        // A vehicle in private mode has no track: no empty files either.
        files: isPrivateVehicle(report.vehicle)
          ? []
          : firstPage(c, [
              { ...named(c, "routeGpx", plate, "gpx"), content: routeGpx(report, c.language) },
              { ...named(c, "routeCsv", plate, "csv"), content: routeCsv(report, c.language) },
            ]),
      };
    },
  },
  stops: {
    inModal: true,
    render: (stored, c) => {
      // A report stored before private mode was respected is cleaned here too (privacy.ts).
      const report = stopsWithoutPrivatePlaces(stored);
      return {
        message: stopsMessage(report, c.page, c.pageToken, viewOptions(c)),
        files: firstPage(c, [
          { ...named(c, "stopsCsv", undefined, "csv"), content: stopsCsv(report, c.language) },
        ]),
      };
    },
  },
  fuel: {
    inModal: true,
    render: (report, c) => ({
      message: fuelMessage(report, c.page, c.pageToken, viewOptions(c)),
      files: firstPage(c, [
        { ...named(c, "fuelCsv", undefined, "csv"), content: fuelCsv(report, c.language) },
      ]),
    }),
  },
  refills: {
    inModal: true,
    render: (stored, c) => {
      const report = refillsWithoutPrivatePlaces(stored);
      return {
        message: refillsMessage(report, viewOptions(c)),
        files: [
          {
            ...named(c, "refillsCsv", report.vehicle.plate, "csv"),
            content: refillsCsv(report, c.language),
          },
        ],
      };
    },
  },
  temps: {
    inModal: true,
    render: async (report, c) => {
      const files: OutgoingFile[] = [];
      if (c.page === 0) {
        for (const entry of report.vehicles.filter((v) => v.sensors.length > 0).slice(0, 3)) {
          files.push({
            ...named(c, "tempsChart", entry.vehicle.plate, "png"),
            content: await temperatureChartPng(report, entry.vehicle.vehicleId, c.language),
          });
        }
      }
      return { message: temperatureMessage(report, c.page, c.pageToken, viewOptions(c)), files };
    },
  },
};

/** The reports the report modal offers, in catalogue order, with their labels in `language`. */
export function modalReportChoices(language: Language): { value: VehicleReportName; label: string }[] {
  const m = words(language);
  return VEHICLE_REPORTS.flatMap((name) =>
    REPORT_VIEWS[name].inModal ? [{ value: name, label: m.modalLabel(name) }] : [],
  );
}
