/** The listeners vehicle reports register: the report form, its vehicle picker, paging, a position. */
import { ACTIONS, INPUTS, VIEWS } from "../../../platform/slack/actionIds.js";
import type { FeatureListeners } from "../../featureListeners.js";
import { reportSubmitted, reportVehicleOptions, showPosition, turnPage } from "./listeners.js";

export const reportsListeners: FeatureListeners = {
  buttons: {
    [ACTIONS.pageNext]: (args, deps) => turnPage(args, deps.reports),
    [ACTIONS.pagePrevious]: (args, deps) => turnPage(args, deps.reports),
    [ACTIONS.showPosition]: (args, deps) => showPosition(args, deps.reports),
  },
  viewSubmissions: { [VIEWS.report]: (args, deps) => reportSubmitted(args, deps.reports) },
  selectOptions: { [INPUTS.reportVehicles.block]: (args, deps) => reportVehicleOptions(args, deps.reports) },
};
