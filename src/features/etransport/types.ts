export {
  compact,
  parseTransportView,
  type TransportView,
  toTransportView,
} from "../../platform/store/contract/transportView.js";

/** The five things a dispatcher can do to a transport from Slack. */
export const TRANSPORT_ACTIONS = ["start", "pause", "end", "edit", "remove"] as const;
export type TransportAction = (typeof TRANSPORT_ACTIONS)[number];
