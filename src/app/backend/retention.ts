import { count } from "../../i18n/plural.js";
import type { Logger } from "../../platform/log.js";
import type {
  AccountRepository,
  AlertRepository,
  AuditRepository,
  TaskRepository,
} from "../../platform/store/contract/index.js";
import { StoreRetention } from "../../platform/store/retention.js";
import type { Config } from "../config.js";

/** Both backends' retention: finished tasks, resolved incidents and audit entries, by the configured days. */
export function retentionOf(
  config: Config,
  stores: { tasks: TaskRepository; alerts: AlertRepository; audit: AuditRepository },
  logger: Logger,
): StoreRetention {
  return new StoreRetention({
    stores,
    taskRetentionDays: config.taskRetentionDays,
    auditRetentionDays: config.auditRetentionDays,
    logger: logger.child({ module: "retention" }),
  });
}

/** One line for the operator when linked accounts cannot be opened with this key. */
export async function warnUnreadable(
  config: Config,
  accounts: AccountRepository,
  logger: Logger,
): Promise<void> {
  const unreadable = await accounts.unreadable();
  if (unreadable.length === 0) return;
  // Each affected user is told to link again when they next ask.
  logger.warn(
    { accounts: unreadable.length },
    `${count("en", unreadable.length, { one: "linked account", other: "linked accounts" })} cannot be decrypted with this CREDENTIALS_KEY` +
      (config.credentialsKeyThrowaway
        ? " (the sandbox makes a new throw-away key at each start)"
        : config.credentialsKey
          ? " (the key was changed)"
          : " (CREDENTIALS_KEY is not set)") +
      "; those users are asked to link again with /fleet login",
  );
}
