/** The fleet account, as other features see it: the `/fleet` subcommands that link, show and choose it. */
export { languageCommand } from "./slack/language.js";
export { login, loginWorkspace, logout, whoami } from "./slack/listeners.js";
export { accountListeners } from "./slack/registration.js";
