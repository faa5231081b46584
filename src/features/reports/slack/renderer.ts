/** The `vehicle-report` kind on the Slack side: its description and its answer (REPORT_VIEWS). */
import { messages } from "../../../i18n/catalogue.js";
import { duration } from "../../../i18n/format.js";
import type { Language } from "../../../i18n/language.js";
import { periodText } from "../../../i18n/periodText.js";
import type { Rendered } from "../../../platform/slack/rendered.js";
import {
  type RenderContext,
  taskLanguage,
  VEHICLES_MAX,
} from "../../../platform/slack/rendering/renderContext.js";
import { ECHO_MAX, userText } from "../../../platform/slack/views/text.js";
import type { KindRenderer } from "../../kindRenderer.js";
import type { TaskOf } from "../../taskKinds.js";
import {
  DEFAULT_MIN_MINUTES,
  type ReportOf,
  type TaggedReport,
  type VehicleReportName,
  type VehicleReportResult,
} from "../catalogue.js";
import { REPORT_VIEWS, type ReportViewContext } from "./views/reportViews.js";
import { resolutionMessage } from "./views/resolution.js";

function describeVehicleReport(task: TaskOf<"vehicle-report"> | undefined, language: Language): string {
  const m = messages(language);
  const t = m.tasks;
  const p = task?.params;
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

export const vehicleReportRenderer: KindRenderer<"vehicle-report"> = {
  describe: describeVehicleReport,
  render: renderVehicleReport,
};
