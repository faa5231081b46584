/** The sandbox page: a Slack-like web page over the fake Slack (see README.md). */
export { type SandboxDeps, type SandboxRoutes, type SandboxTransport, sandboxRoutes } from "./routes.js";
export {
  buildState,
  type SandboxChannel,
  type SandboxFile,
  type SandboxMessage,
  type SandboxModal,
  type SandboxState,
} from "./state.js";
