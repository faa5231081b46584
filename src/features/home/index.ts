/** The App Home tab, as other features see it: publish it again (after a login or logout). */
export { publishHome } from "./slack/listeners.js";
export { homeListeners } from "./slack/registration.js";
