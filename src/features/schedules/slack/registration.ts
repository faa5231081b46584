/** The listeners schedules register: the list's buttons (`/fleet schedule…` goes through /fleet). */
import { ACTIONS } from "../../../platform/slack/actionIds.js";
import type { FeatureListeners } from "../../featureListeners.js";
import { pauseButton, removeButton, resumeButton, runNowButton } from "./listeners.js";

export const schedulesListeners: FeatureListeners = {
  buttons: {
    [ACTIONS.schedulePause]: (args, deps) => pauseButton(args, deps.schedules),
    [ACTIONS.scheduleResume]: (args, deps) => resumeButton(args, deps.schedules),
    [ACTIONS.scheduleRunNow]: (args, deps) => runNowButton(args, deps.schedules),
    [ACTIONS.scheduleRemove]: (args, deps) => removeButton(args, deps.schedules),
  },
};
