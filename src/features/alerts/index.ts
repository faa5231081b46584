/** Transport alerts, as other features see it: the `/fleet alerts …` subcommands. */
export {
  channelIdByName,
  channelIdsOf,
  listAlerts,
  subscribeAlerts,
  unsubscribeAlerts,
} from "./slack/listeners.js";
export { alertsListeners } from "./slack/registration.js";
export { zonesCommand } from "./slack/zones.js";
