/** The listener the Home tab registers: `app_home_opened`. */
import type { FeatureListeners } from "../../featureListeners.js";
import { homeOpened } from "./listeners.js";

export const homeListeners: FeatureListeners = {
  events: { app_home_opened: (args, deps) => homeOpened(args, deps.reports) },
};
