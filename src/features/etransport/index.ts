/**
 * e-Transport, as other features see it: a transport's view and state, how serious its
 * transmission is, and the words and buttons that show one (the alerts' messages use them).
 * Its kinds, handlers, listeners and renderers are registered by the composition root.
 */
export { type AlertSeverity, alertSeverity, isDomesticRoute } from "./severity.js";
export { etransportListeners } from "./slack/registration.js";
export { fleetAccessMessage } from "./slack/views/auditHistory.js";
export { transportButtonValue } from "./slack/views/buttonValues.js";
export {
  blocksText,
  cut,
  formatUit,
  idPart,
  SEVERITY_MARKS,
} from "./slack/views/transportText.js";
export { transportStateInfo } from "./state.js";
export type { TransportView } from "./types.js";
