import { z } from "zod";
import type { FleetClient, FleetSession } from "../../fleet/client.js";
import { isUnauthorizedError } from "../../fleet/errors.js";
import { decryptSecret, linkAssociatedData } from "../../store/accountStore.js";
import type { AccountRepository } from "../../store/repositories.js";
import { WORKSPACE_ACCOUNT_USER } from "../../workspaces/workspace.js";
import type { KindHandler } from "../kinds.js";

export const accountLinkParams = z.object({
  username: z.string().min(1),
  /**
   * The password sealed with CREDENTIALS_KEY for this Slack user in the task's workspace
   * (linkAssociatedData): task rows never hold it in clear, and it is deleted from the row as
   * soon as the attempt ends (absent afterwards).
   */
  sealedPassword: z.string().min(1).optional(),
  /**
   * `workspace`: the workspace's own fleet account (`/fleet login workspace`, multi-workspace
   * mode), used by everyone there who linked none; the task's Slack user is who set it.
   */
  linkAs: z.enum(["user", "workspace"]).optional(),
});
export type AccountLinkParams = z.infer<typeof accountLinkParams>;

/**
 * Why a link was refused, as a code (the Slack side words it): `login`, the service did not
 * accept the user name and password (or the user is inactive).
 */
export type AccountLinkRefusal = "login";

export type AccountLinkResult =
  | { linked: true; username: string }
  | {
      linked: false;
      username: string;
      code?: AccountLinkRefusal;
      /** The English words of a result stored before codes (shown as they are). */
      reason?: string;
    };

/**
 * `/fleet login`: the credentials are checked with a real login (through the gate, like
 * every call), and only then stored, encrypted, for the Slack user. The check logs in with
 * a token of its own: a refused attempt with someone else's user name neither replaces nor
 * drops the token their commands use.
 */
export function accountLinkHandler(deps: {
  client: FleetClient;
  accounts: AccountRepository;
  key: Buffer | undefined;
}): KindHandler<"account-link", FleetSession> {
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
      ctx.progress(0, 1);
      const probe = deps.client.detachedSession({ username: ctx.params.username, password });
      try {
        await probe.login(ctx.call);
      } catch (error) {
        if (isUnauthorizedError(error) && error.reason === "login") {
          return { linked: false, username: ctx.params.username, code: "login" };
        }
        throw error;
      }
      const linkedUser = ctx.params.linkAs === "workspace" ? WORKSPACE_ACCOUNT_USER : slackUser;
      await deps.accounts.link(workspace, linkedUser, ctx.params.username, password);
      deps.client.adopt(probe);
      ctx.progress(1, 1);
      return { linked: true, username: ctx.params.username };
    },
  };
}
