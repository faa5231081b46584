/** Fake Slack: a local Slack Web API, Block Kit limit guard and request driver (tests and sandbox). */

export type {
  AppHomeOpenedInput,
  AppUninstalledInput,
  BlockActionInput,
  BlockSuggestionInput,
  SlashCommandInput,
  TeamAccessRevokedInput,
  TokensRevokedInput,
  ViewSubmissionInput,
} from "./driver.js";
export { type DriverResult, type ElementInput, SlackDriver, type SlackDriverOptions } from "./driver.js";
export {
  BLOCK_TYPES,
  ELEMENT_TYPES,
  formatProblem,
  LIMITS,
  type LimitError,
  type LimitProblem,
  primaryError,
  totalText,
  validateMessagePayload,
  validateOptionsResponse,
  validateView,
  validateViewErrors,
} from "./limits.js";
export {
  CODE_TTL_MS,
  type FakeInstall,
  FakeOAuth,
  type FakeOAuthOptions,
  type FakeTeamInput,
  type InstallChoice,
  type ResolvedFakeOAuthOptions,
  SECOND_TEAM,
} from "./oauth.js";
export {
  DEFAULT_CHANNELS,
  DEFAULT_USERS,
  type FakeSlack,
  type FakeSlackOptions,
  type ResolvedFakeSlackOptions,
  type SocketAck,
  startFakeSlack,
  type WaitOptions,
} from "./server.js";
export { signedHeaders, slackSignature } from "./signing.js";
export type * from "./types.js";
export {
  dmIdFor,
  FakeWorkspace,
  MAX_VIEW_STACK,
  RESPONSE_URL_MAX_USES,
  RESPONSE_URL_TTL_MS,
  SlackApiError,
  TRIGGER_TTL_MS,
} from "./workspace.js";
