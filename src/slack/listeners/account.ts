import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { z } from "zod";
import type { SharedState, WindowTake } from "../../store/sharedState.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../../workspaces/workspace.js";
import { INPUTS } from "../actionIds.js";
import type { AccountDeps } from "../context.js";
import { loginModal, noticeMessage, statusModal } from "../views/common.js";
import { slackDate } from "../views/message.js";
import { userText } from "../views/text.js";
import { submitAndAcknowledge } from "./acknowledge.js";
import { publishHome } from "./home.js";
import { type Ack, ephemeral, NO_ACCOUNT, parseJson } from "./shared.js";

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;
type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** What a /fleet account command has: who typed it, where, and the trigger for a modal. */
export interface AccountCommandArgs {
  ack: Ack;
  client: WebClient;
  userId: string;
  channelId: string;
  triggerId: string;
}

const LINKING_DISABLED =
  "Linking your own fleet account is not enabled here: the operator has not set CREDENTIALS_KEY (the key that encrypts stored passwords).";

const modalMetadata = z.object({ channel: z.string().optional(), workspace: z.boolean().optional() });

const WORKSPACE_ACCOUNT_BY_OPERATOR =
  "This fleetbot serves one workspace: its workspace account is set by whoever runs it (FLEET_USERNAME and FLEET_PASSWORD).";
const WORKSPACE_ACCOUNT_REFUSED =
  "Only whoever installed fleetbot here, or a workspace admin or owner, can set the workspace's fleet account.";

/**
 * Link attempts per Slack user of a workspace: at most `limit` in any `windowMs`. Each attempt logs in as
 * the named account through that account's gate, so without a limit a user could spend
 * another account's rate budget with wrong passwords. Counted in a SharedState: this process'
 * memory for one replica (a restart forgets at most one window), Redis for several, so a
 * user cannot get `limit` attempts from each replica.
 */
export class LinkAttempts {
  constructor(
    private readonly counted: SharedState,
    readonly limit = 3,
    readonly windowMs = 10 * 60_000,
  ) {}

  /**
   * Counts an attempt now, or says when the next one is allowed (the oldest counted one leaves
   * the window). The single workspace ("") keeps the key it always had.
   */
  take(workspace: WorkspaceKey, slackUser: string): Promise<WindowTake> {
    const who = workspace === ONLY_WORKSPACE ? slackUser : `${workspace}/${slackUser}`;
    return this.counted.takeInWindow(`link-attempts:${who}`, this.limit, this.windowMs);
  }

  /** An uninstalled workspace's counted attempts go with the rest of its data. */
  forgetWorkspace(workspace: WorkspaceKey): Promise<number> {
    if (workspace === ONLY_WORKSPACE) return Promise.resolve(0);
    return this.counted.forgetWindows(`link-attempts:${workspace}/`);
  }
}

/** `/fleet login`: the private form for a user name and password (never typed in a message). */
export async function login(args: AccountCommandArgs, deps: AccountDeps): Promise<void> {
  if (!deps.linking) {
    await args.ack(
      ephemeral(
        noticeMessage(
          LINKING_DISABLED,
          (await deps.users.accountOf(args.userId))
            ? "Your commands run as the workspace account meanwhile."
            : undefined,
        ),
      ),
    );
    return;
  }
  await args.ack();
  await args.client.views.open({
    trigger_id: args.triggerId,
    view: loginModal(JSON.stringify({ channel: args.channelId })),
  });
}

/**
 * `/fleet login workspace` (multi-workspace mode): the form for the workspace's own fleet
 * account, which everyone who linked none acts as. Only the installer or an admin may open it.
 */
export async function loginWorkspace(args: AccountCommandArgs, deps: AccountDeps): Promise<void> {
  if (!deps.workspaceAccount) {
    await args.ack(
      ephemeral(noticeMessage(WORKSPACE_ACCOUNT_BY_OPERATOR, "Link your own with /fleet login.")),
    );
    return;
  }
  if (!deps.linking) {
    await args.ack(ephemeral(noticeMessage(LINKING_DISABLED)));
    return;
  }
  const allowed = await deps.workspaceAccount.mayManage(args.client, args.userId);
  if (!allowed) {
    await args.ack(
      ephemeral(
        noticeMessage(
          allowed === undefined
            ? "Slack did not say in time whether you are a workspace admin: try `/fleet login workspace` again in a moment."
            : WORKSPACE_ACCOUNT_REFUSED,
          "Link your own account with /fleet login.",
        ),
      ),
    );
    return;
  }
  await args.ack();
  await args.client.views.open({
    trigger_id: args.triggerId,
    view: loginModal(
      JSON.stringify({ channel: args.channelId, workspace: true }),
      undefined,
      undefined,
      true,
    ),
  });
}

/** `/fleet logout`: unlink; the workspace account (if any) takes over. */
export async function logout(args: AccountCommandArgs, deps: AccountDeps): Promise<void> {
  const had = await deps.unlink(args.userId);
  const fallback = await deps.users.accountOf(args.userId);
  await args.ack(
    ephemeral(
      noticeMessage(
        had ? "Your fleet account is unlinked and its password deleted." : "You had no linked fleet account.",
        fallback ? `Your commands now run as the workspace account ${fallback.username}.` : undefined,
      ),
    ),
  );
}

/** `/fleet whoami`: the fleet account the user's commands run as. */
export async function whoami(args: AccountCommandArgs, deps: AccountDeps): Promise<void> {
  const account = await deps.users.accountOf(args.userId);
  await args.ack(
    ephemeral(
      account
        ? noticeMessage(
            `Your commands run as the fleet account *${userText(account.username, 100)}* (${account.linked ? "linked by you" : "the workspace account"}).`,
            account.linked ? "Unlink with /fleet logout." : "Link your own with /fleet login.",
          )
        : NO_ACCOUNT,
    ),
  );
}

/** The Home tab's Link button. */
export async function homeLogin({ ack, body, client }: ButtonArgs, deps: AccountDeps): Promise<void> {
  await ack();
  // Without a key nothing could store the password: say so instead of a button that does nothing.
  const view = deps.linking
    ? loginModal(JSON.stringify({}))
    : statusModal("Link fleet account", LINKING_DISABLED);
  await client.views.open({ trigger_id: body.trigger_id, view });
}

/** The Home tab's Unlink button. */
export async function homeLogout({ ack, body, client }: ButtonArgs, deps: AccountDeps): Promise<void> {
  await ack();
  await deps.unlink(body.user.id);
  await publishHome(deps, client, body.user.id);
}

/** The login form: the password is sealed for this user at once, then checked by a task. */
export async function loginSubmitted(
  { ack, view, body, client }: ViewArgs,
  deps: AccountDeps,
): Promise<void> {
  const values = view.state.values;
  const username = values[INPUTS.loginUsername.block]?.[INPUTS.loginUsername.action]?.value?.trim() ?? "";
  const password = values[INPUTS.loginPassword.block]?.[INPUTS.loginPassword.action]?.value ?? "";
  const errors: Record<string, string> = {};
  if (!username) errors[INPUTS.loginUsername.block] = "Enter your fleet-service user name or e-mail.";
  if (!password) errors[INPUTS.loginPassword.block] = "Enter your fleet-service password.";
  if (!deps.linking) errors[INPUTS.loginUsername.block] = "Linking is not enabled (no CREDENTIALS_KEY).";
  if (Object.keys(errors).length > 0 || !deps.linking) {
    await ack({ response_action: "errors", errors });
    return;
  }
  const allowed = await deps.linking.attempts.take(body.user.id);
  if (!allowed.ok) {
    await ack({
      response_action: "update",
      view: statusModal(
        "Link fleet account",
        `:no_entry: Too many link attempts: try again at ${slackDate(allowed.retryAt, "{time}", `${new Date(allowed.retryAt).toISOString().slice(11, 16)} UTC`)}. Nothing was sent to the fleet service.`,
      ),
    });
    return;
  }
  const metadata = parseJson(modalMetadata, view.private_metadata);
  // The workspace account's form: who submits it is checked again (an admin may have lost the role).
  const forWorkspace = metadata?.workspace === true;
  if (
    forWorkspace &&
    !(deps.workspaceAccount && (await deps.workspaceAccount.mayManage(client, body.user.id)))
  ) {
    await ack({
      response_action: "update",
      view: statusModal("Workspace account", WORKSPACE_ACCOUNT_REFUSED),
    });
    return;
  }
  await submitAndAcknowledge(
    deps,
    {
      kind: "account-link",
      params: {
        username,
        sealedPassword: deps.linking.seal(body.user.id, password),
        ...(forWorkspace ? { linkAs: "workspace" as const } : {}),
      },
      account: username,
      slackUser: body.user.id,
      reply: { viewId: view.id, channel: metadata?.channel },
      priority: "interactive",
    },
    () =>
      ack({
        response_action: "update",
        view: statusModal(
          "Link fleet account",
          `:hourglass_flowing_sand: Checking *${userText(username, 100)}* with the fleet service… The answer appears here (and, once linked, in a direct message).`,
        ),
      }),
  );
}
