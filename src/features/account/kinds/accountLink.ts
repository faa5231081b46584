/** The `account-link` kind's parameters and result (its handler: tasks/handlers/accountLink.ts). */
import { z } from "zod";

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
 * accept the user name and password (or the user is inactive); `too-many-failures`, too many
 * wrong passwords were tried for this user name recently (LinkFailures), so nothing was sent.
 */
export type AccountLinkRefusal = "login" | "too-many-failures";

export type AccountLinkResult =
  | { linked: true; username: string }
  | {
      linked: false;
      username: string;
      code?: AccountLinkRefusal;
      /** `too-many-failures`: when an attempt is allowed again (epoch ms). */
      retryAt?: number;
      /** The English words of a result stored before codes (shown as they are). */
      reason?: string;
    };
