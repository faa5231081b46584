/** The `/fleet` front door: it parses once and hands the command to the feature that answers it. */
export { fleetCommandListeners } from "./slack/registration.js";
