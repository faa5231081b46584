import type { FleetClient, FleetSession } from "../../../platform/fleet/client.js";
import { isUnauthorizedError } from "../../../platform/fleet/errors.js";
import type { AccountRepository } from "../../../platform/store/contract/index.js";
import { decryptSecret, linkAssociatedData } from "../../../platform/store/sealing.js";
import { MemorySharedState } from "../../../platform/store/sharedState.js";
import { WORKSPACE_ACCOUNT_USER } from "../../../platform/workspaces/workspace.js";
import type { KindHandler } from "../../taskKinds.js";
import { accountLinkParams } from "../kinds/accountLink.js";
import { LinkFailures } from "./linkFailures.js";

/**
 * The gate priority of a link attempt's login. The user name may be another tenant's account,
 * and the login takes one of that account's slots: at `background` it goes only when the
 * account has nothing of its own waiting (lookups, actions, alert sweeps, reports), in turn
 * with upkeep, so strangers' attempts never delay the account's work by more than the one
 * slot in flight. On an idle account the slot is free at once, so a correct password still
 * links promptly. (`report` would still let a burst of attempts queued first go before the
 * account's reports.) The task itself stays interactive: it is admitted at once, not behind
 * other accounts' reports in the task queue.
 */
export const LINK_LOGIN_PRIORITY = "background" as const;

/**
 * `/fleet login`: the credentials are checked with a real login (through the gate, like
 * every call), and only then stored, encrypted, for the Slack user. The check logs in with
 * a token of its own: a refused attempt with someone else's user name neither replaces nor
 * drops the token their commands use. Failed attempts are capped per fleet user name, across
 * workspaces and per workspace (`failures`); past the cap no login is sent.
 */
export function accountLinkHandler(deps: {
  client: FleetClient;
  accounts: AccountRepository;
  key: Buffer | undefined;
  /** Default: counted in this process' memory (one process); replicas pass one on Redis. */
  failures?: LinkFailures;
}): KindHandler<"account-link", FleetSession> {
  const failures = deps.failures ?? new LinkFailures(new MemorySharedState());
  return {
    kind: "account-link",
    params: accountLinkParams,
    ownSession: true,
    // Whatever the outcome, the attempt's password does not outlive it.
    scrubParams: ({ username, linkAs }) => ({ username, ...(linkAs ? { linkAs } : {}) }),
    async run(ctx) {
      const { slackUser, workspace } = ctx.task;
      if (!slackUser || !deps.key) throw new Error("Linking needs a Slack user and CREDENTIALS_KEY");
      if (!ctx.params.sealedPassword) throw new Error("The link attempt's password was already deleted");
      const password = decryptSecret(
        deps.key,
        ctx.params.sealedPassword,
        linkAssociatedData(workspace, slackUser),
      );
      const { username } = ctx.params;
      const allowed = await failures.reserve(workspace, username, ctx.task.id);
      if (!allowed.ok) {
        // The same answer whether the user name exists or not: it says nothing about the account.
        return { linked: false, username, code: "too-many-failures", retryAt: allowed.retryAt };
      }
      ctx.progress(0, 1);
      const probe = deps.client.detachedSession({ username, password });
      try {
        await probe.login({ ...ctx.call, priority: LINK_LOGIN_PRIORITY });
      } catch (error) {
        if (isUnauthorizedError(error) && error.reason === "login") {
          return { linked: false, username, code: "login" };
        }
        // Not a wrong password (cancelled in the gate, the service unreachable): not counted.
        await failures.giveBack(workspace, username, ctx.task.id);
        throw error;
      }
      await failures.giveBack(workspace, username, ctx.task.id);
      const linkedUser = ctx.params.linkAs === "workspace" ? WORKSPACE_ACCOUNT_USER : slackUser;
      await deps.accounts.link(workspace, linkedUser, ctx.params.username, password);
      deps.client.adopt(probe);
      ctx.progress(1, 1);
      return { linked: true, username: ctx.params.username };
    },
  };
}
