/**
 * Vehicle reports, as other features and the tests see them: the report builders (pure, over the
 * fleet's records), and the `/fleet` front door's entries (run a report, open the report form).
 */

export { REPORT_CATALOGUE } from "./catalogue.js";
export * from "./format.js";
export * from "./fuel.js";
export * from "./positions.js";
export * from "./privacy.js";
export * from "./refills.js";
export * from "./route.js";
export {
  openReportModal,
  type ReportCommandArgs,
  reportTaskParams,
  runReport,
  unresolvedVehicles,
} from "./slack/listeners.js";
export { reportsListeners } from "./slack/registration.js";
export * from "./stops.js";
export * from "./temperatures.js";
export * from "./types.js";
