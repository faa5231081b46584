/** The listeners alerts register: mute and unmute on an alert (`/fleet alerts` goes through /fleet). */
import { ACTIONS } from "../../../platform/slack/actionIds.js";
import type { FeatureListeners } from "../../featureListeners.js";
import { alertMute, alertUnmute } from "./listeners.js";

export const alertsListeners: FeatureListeners = {
  buttons: {
    [ACTIONS.alertMute]: (args, deps) => alertMute(args, deps.alerts),
    [ACTIONS.alertUnmute]: (args, deps) => alertUnmute(args, deps.alerts),
  },
};
