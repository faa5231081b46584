/** The listeners the account registers: the login modal and the Home tab's log in and log out. */
import { ACTIONS, VIEWS } from "../../../platform/slack/actionIds.js";
import type { FeatureListeners } from "../../featureListeners.js";
import { homeLogin, homeLogout, loginSubmitted } from "./listeners.js";

export const accountListeners: FeatureListeners = {
  buttons: {
    [ACTIONS.homeLogin]: (args, deps) => homeLogin(args, deps.account),
    [ACTIONS.homeLogout]: (args, deps) => homeLogout(args, deps.account),
  },
  viewSubmissions: { [VIEWS.login]: (args, deps) => loginSubmitted(args, deps.account) },
};
