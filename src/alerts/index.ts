/** Transport alerts: incidents (pure), subscriptions, the poller and the Slack publisher. */
export * from "./incidents.js";
export {
  type AccountRunResult,
  AlertPoller,
  type AlertPollerOptions,
  type PollResult,
  type SweepResult,
  type TransportSource,
} from "./poller.js";
export { AlertPublishError, type AlertPublisher, type AlertPublishFailure } from "./publisher.js";
export {
  createAlertWebClient,
  SlackAlertPublisher,
  type SlackAlertPublisherOptions,
  toPublishError,
} from "./slackPublisher.js";
export {
  AlertSubscriptions,
  InvalidAlertFilterError,
  normalizeAlertCodes,
  type SubscriptionFilters,
} from "./subscriptions.js";
