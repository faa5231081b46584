/** The listener the front door registers: `/fleet`. */
import type { FeatureListeners } from "../../featureListeners.js";
import { fleetCommand } from "./listeners.js";

export const fleetCommandListeners: FeatureListeners = {
  commands: { "/fleet": (args, deps) => fleetCommand(args, deps) },
};
