/** The listeners the queue registers: Cancel on a waiting message, and the queue's refresh. */
import { ACTIONS } from "../../../platform/slack/actionIds.js";
import type { FeatureListeners } from "../../featureListeners.js";
import { cancelTask, refreshQueue } from "./listeners.js";

export const queueListeners: FeatureListeners = {
  buttons: {
    [ACTIONS.cancelTask]: (args, deps) => cancelTask(args, deps.queue),
    [ACTIONS.refreshQueue]: (args, deps) => refreshQueue(args, deps.queue),
  },
};
