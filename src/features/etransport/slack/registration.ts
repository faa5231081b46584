/** The listeners e-Transport registers: `/etransport`, the cards' buttons, the list's pages, the form. */
import { ACTIONS, INPUTS, VIEWS } from "../../../platform/slack/actionIds.js";
import type { FeatureListeners } from "../../featureListeners.js";
import {
  etransportCommand,
  transportActionButton,
  transportEdit,
  transportRemove,
  transportRemoveCancel,
  transportShow,
  transportSubmitted,
  transportVehicleOptions,
  turnTransportListPage,
} from "./listeners.js";

export const etransportListeners: FeatureListeners = {
  commands: { "/etransport": (args, deps) => etransportCommand(args, deps.etransport) },
  buttons: {
    [ACTIONS.transportStart]: (args, deps) => transportActionButton("start")(args, deps.etransport),
    [ACTIONS.transportPause]: (args, deps) => transportActionButton("pause")(args, deps.etransport),
    [ACTIONS.transportEnd]: (args, deps) => transportActionButton("end")(args, deps.etransport),
    [ACTIONS.transportRemove]: (args, deps) => transportRemove(args, deps.etransport),
    [ACTIONS.transportRemoveCancel]: (args, deps) => transportRemoveCancel(args, deps.etransport),
    [ACTIONS.transportEdit]: (args, deps) => transportEdit(args, deps.etransport),
    [ACTIONS.transportShow]: (args, deps) => transportShow(args, deps.etransport),
    [ACTIONS.transportListNext]: (args, deps) => turnTransportListPage(args, deps.etransport),
    [ACTIONS.transportListPrevious]: (args, deps) => turnTransportListPage(args, deps.etransport),
  },
  viewSubmissions: {
    [VIEWS.transportCreate]: (args, deps) => transportSubmitted("create")(args, deps.etransport),
    [VIEWS.transportEdit]: (args, deps) => transportSubmitted("edit")(args, deps.etransport),
  },
  selectOptions: {
    [INPUTS.transportVehicle.block]: (args, deps) => transportVehicleOptions(args, deps.etransport),
  },
};
