/** How a task that did not finish is told: its failure in words, or its cancellation. */
import { type Language, messages } from "../../../i18n/index.js";
import { formatUit } from "../../fleet/uit.js";
import type { TaskError, TaskErrorCode } from "../../tasks/task.js";
import { context, section } from "./blocks.js";
import type { SlackMessage } from "./message.js";
import { noticeMessage } from "./notice.js";
import { userCode, userText } from "./text.js";

/**
 * What a user reads of a task's failure, from its code and parameters (src/platform/tasks/failures.ts),
 * as plain text. A row stored before codes holds its English `message`: shown as it is.
 */
export function taskErrorText(error: TaskError | undefined, language: Language): string {
  const t = messages(language).tasks;
  if (!error) return t.failedDefault();
  if (error.code === undefined) return error.message ?? t.failedDefault();
  const p = error.params ?? {};
  const text = (key: string): string => {
    const value = p[key];
    return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
  };
  const amount = (key: string): number => (typeof p[key] === "number" ? (p[key] as number) : 0);
  const code = error.code as TaskErrorCode;
  switch (code) {
    case "etransport": {
      const parameters = Array.isArray(p.parameters)
        ? p.parameters.filter((x): x is string => typeof x === "string").map(formatUit)
        : [];
      return messages(language).etransport.failure(text("errorCode"), parameters);
    }
    case "internal":
      return t.internal();
    case "credentials":
      return p.workspace === true
        ? t.credentialsWorkspace({ username: text("username") })
        : t.credentialsUser({ username: text("username") });
    case "rule-max-vehicles":
      return t.ruleMaxVehicles({ endpoint: text("endpoint"), max: amount("max"), given: amount("given") });
    case "rule-max-period":
      return t.ruleMaxPeriod({ endpoint: text("endpoint"), days: amount("days") });
    // Rows stored before rules carried a subject.
    case "rule-period-order":
      return ruleText("period-order", "period", language);
    case "rule-empty-list":
      return ruleText("empty-list", "vehicles", language);
    case "rule-min-stationary-margin":
      return t.ruleStopMargin();
    case "rule":
      return ruleText(text("rule"), text("subject"), language);
    case "bad-request":
      return text("reasons") ? t.badRequest({ reasons: text("reasons") }) : t.badRequestBare();
    case "unauthorized-login":
      return t.unauthorizedLogin();
    case "unauthorized-password-changed":
      return t.unauthorizedPasswordChanged();
    case "unauthorized-expired":
      return t.unauthorizedExpired();
    case "unauthorized-vehicles":
      return t.unauthorizedVehicles();
    case "unauthorized-access":
      return t.unauthorizedAccess();
    case "rate-limited":
      return t.rateLimited();
    case "application":
      return text("reasons") ? t.application({ reasons: text("reasons") }) : t.applicationBare();
    case "transport-timeout":
      return t.transportTimeout();
    case "transport-network":
      return t.transportNetwork();
    case "transport-http":
      return t.transportHttp();
    case "transport-malformed":
      return t.transportMalformed();
    default:
      // A code of a later version read by an older one: its English words if it kept any.
      return error.message ?? t.failedDefault();
  }
}

/**
 * A request rule fleetbot would not break, by rule and subject (RequestRuleError). A rule without
 * words of its own (a later version's, or a row stored before subjects) says its code.
 */
function ruleText(rule: string, subject: string, language: Language): string {
  const t = messages(language).tasks;
  if (rule === "invalid-vehicle-id") return t.ruleWholeIds({ subject: "vehicles" });
  if (rule === "invalid-status") return t.ruleWholeIds({ subject: "statuses" });
  if (subject === "") return t.ruleOther({ rule });
  switch (rule) {
    case "required":
      return t.ruleRequired({ subject });
    case "invalid-date":
      return t.ruleInvalidDate({ subject });
    case "period-order":
      return t.ruleOrder({ subject });
    case "empty-list":
      return t.ruleEmptyListOf({ subject });
    case "empty-value":
      return t.ruleEmptyValue({ subject });
    case "invalid-paging":
      return t.ruleInvalidPaging({ subject });
    default:
      return t.ruleOther({ rule });
  }
}

/** `what` is mrkdwn (describeTask); the error's text is plain text. */
export function failureMessage(what: string, error: TaskError | undefined, language: Language): SlackMessage {
  const t = messages(language).tasks;
  const message = userText(taskErrorText(error, language), 2000);
  const support = error?.correlationId ? t.supportId({ id: userCode(error.correlationId) }) : undefined;
  return {
    text: t.failed({ what, message }),
    blocks: [
      section(`:x: ${t.failed({ what: `*${what}*`, message })}`),
      ...(support ? [context(support)] : []),
    ],
  };
}

/** A cancelled task's answer; `by` (a Slack user id) when someone cancelled it with its Cancel button. */
export function cancelledMessage(what: string, language: Language, by?: string): SlackMessage {
  const t = messages(language).tasks;
  return noticeMessage(
    `:no_entry_sign: ${by ? t.cancelledBy({ what, user: `<@${by}>` }) : t.cancelled({ what })}`,
    t.cancelledDetail(),
  );
}
