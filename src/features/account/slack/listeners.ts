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
import { messages } from "../../../i18n/catalogue.js";
import { time } from "../../../i18n/format.js";
import type { Language } from "../../../i18n/language.js";
import { INPUTS } from "../../../platform/slack/actionIds.js";
import { parseJson } from "../../../platform/slack/listeners/payloads.js";
import { type Ack, ephemeral, noAccountMessage } from "../../../platform/slack/listeners/responses.js";
import { noticeMessage } from "../../../platform/slack/views/notice.js";
import { statusModal } from "../../../platform/slack/views/statusModal.js";
import { userText } from "../../../platform/slack/views/text.js";
import type { SharedState, WindowTake } from "../../../platform/store/sharedState.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../../../platform/workspaces/workspace.js";
import { submitAndAcknowledge } from "../../acknowledge.js";
import type { AccountDeps } from "../../context.js";
import { publishHome } from "../../home/index.js";
import { loginModal } from "./views/loginModal.js";

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;
type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** What a /fleet account command has: who typed it, where, and the trigger for a modal. */
export interface AccountCommandArgs {
  ack: Ack;
  client: WebClient;
  userId: string;
  channelId: string;
  triggerId: string;
  /** The user's language when the command resolved it already (once per request); else read here. */
  language?: Language;
}

const modalMetadata = z.object({ channel: z.string().optional(), workspace: z.boolean().optional() });

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
  const language = args.language ?? (await deps.users.languageOf(args.userId));
  const t = messages(language).account;
  if (!deps.linking) {
    await args.ack(
      ephemeral(
        noticeMessage(
          t.linkingDisabled(),
          (await deps.users.accountOf(args.userId)) ? t.linkingDisabledMeanwhile() : undefined,
        ),
      ),
    );
    return;
  }
  await args.ack();
  await args.client.views.open({
    trigger_id: args.triggerId,
    view: loginModal(JSON.stringify({ channel: args.channelId }), language),
  });
}

/**
 * `/fleet login workspace` (multi-workspace mode): the form for the workspace's own fleet
 * account, which everyone who linked none acts as. Only the installer or an admin may open it.
 */
export async function loginWorkspace(args: AccountCommandArgs, deps: AccountDeps): Promise<void> {
  const language = args.language ?? (await deps.users.languageOf(args.userId));
  const t = messages(language).account;
  if (!deps.workspaceAccount) {
    await args.ack(ephemeral(noticeMessage(t.workspaceAccountByOperator(), t.linkYourOwn())));
    return;
  }
  if (!deps.linking) {
    await args.ack(ephemeral(noticeMessage(t.linkingDisabled())));
    return;
  }
  const allowed = await deps.workspaceAccount.mayManage(args.client, args.userId);
  if (!allowed) {
    await args.ack(ephemeral(workspaceAccountRefusal(t, allowed, deps.workspaceAccount.orgWide === true)));
    return;
  }
  await args.ack();
  await args.client.views.open({
    trigger_id: args.triggerId,
    view: loginModal(JSON.stringify({ channel: args.channelId, workspace: true }), language, {
      forWorkspace: true,
    }),
  });
}

/** Why `/fleet login workspace` is refused, and what to do instead. */
function workspaceAccountRefusal(
  t: ReturnType<typeof messages>["account"],
  allowed: false | undefined,
  orgWide: boolean,
) {
  if (orgWide)
    return noticeMessage(
      allowed === undefined ? t.orgAdminUnknown() : t.orgAccountRefused(),
      t.orgAccountAskAdmin(),
    );
  return noticeMessage(
    allowed === undefined ? t.workspaceAdminUnknown() : t.workspaceAccountRefused(),
    t.workspaceAccountAskAdmin(),
  );
}

/** `/fleet logout`: unlink; the workspace account (if any) takes over. */
export async function logout(args: AccountCommandArgs, deps: AccountDeps): Promise<void> {
  const language = args.language ?? (await deps.users.languageOf(args.userId));
  const t = messages(language).account;
  const had = await deps.unlink(args.userId);
  const fallback = await deps.users.accountOf(args.userId);
  await args.ack(
    ephemeral(
      noticeMessage(
        had ? t.unlinked() : t.hadNoLink(),
        fallback ? t.nowWorkspaceAccount({ username: userText(fallback.username, 100) }) : undefined,
      ),
    ),
  );
}

/** `/fleet whoami`: the fleet account the user's commands run as. */
export async function whoami(args: AccountCommandArgs, deps: AccountDeps): Promise<void> {
  const [account, language] = await Promise.all([
    deps.users.accountOf(args.userId),
    args.language ?? deps.users.languageOf(args.userId),
  ]);
  const t = messages(language).account;
  const username = account ? userText(account.username, 100) : "";
  await args.ack(
    ephemeral(
      account
        ? noticeMessage(
            account.linked ? t.whoamiLinked({ username }) : t.whoamiWorkspace({ username }),
            account.linked ? t.unlinkHint() : t.linkYourOwn(),
          )
        : noAccountMessage(language),
    ),
  );
}

/** The Home tab's Link button. */
export async function homeLogin({ ack, body, client }: ButtonArgs, deps: AccountDeps): Promise<void> {
  await ack();
  const language = await deps.users.languageOf(body.user.id);
  const t = messages(language).account;
  // Without a key nothing could store the password: say so instead of a button that does nothing.
  const view = deps.linking
    ? loginModal(JSON.stringify({}), language)
    : statusModal(t.loginTitle(), t.linkingDisabled(), undefined, language);
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
  // Resolved once for the submission: the link's answer (a task) is rendered in it too.
  const language = await deps.users.languageOf(body.user.id);
  const t = messages(language).account;
  const errors: Record<string, string> = {};
  if (!username) errors[INPUTS.loginUsername.block] = t.loginUsernameMissing();
  if (!password) errors[INPUTS.loginPassword.block] = t.loginPasswordMissing();
  if (!deps.linking) errors[INPUTS.loginUsername.block] = t.loginNotEnabled();
  if (Object.keys(errors).length > 0 || !deps.linking) {
    await ack({ response_action: "errors", errors });
    return;
  }
  const allowed = await deps.linking.attempts.take(body.user.id);
  if (!allowed.ok) {
    await ack({
      response_action: "update",
      view: statusModal(
        t.loginTitle(),
        t.loginTooMany({
          time: `<!date^${Math.floor(allowed.retryAt / 1000)}^{time}|${time(language, allowed.retryAt, deps.users.zoneAtAck(body.user.id))}>`,
        }),
        undefined,
        language,
      ),
    });
    return;
  }
  const metadata = parseJson(modalMetadata, view.private_metadata);
  // The workspace account's form: who submits it is checked again (an admin may have lost the role).
  const forWorkspace = metadata?.workspace === true;
  if (forWorkspace) {
    const allowed = deps.workspaceAccount
      ? await deps.workspaceAccount.mayManage(client, body.user.id)
      : false;
    if (!allowed) {
      const orgWide = deps.workspaceAccount?.orgWide === true;
      const refused = orgWide ? t.orgAccountRefused() : t.workspaceAccountRefused();
      const ask = orgWide ? t.orgAccountAskAdmin() : t.workspaceAccountAskAdmin();
      await ack({
        response_action: "update",
        view: statusModal(t.loginTitleWorkspace(), `${refused} ${ask}`, undefined, language),
      });
      return;
    }
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
      reply: { viewId: view.id, channel: metadata?.channel, language },
      priority: "interactive",
    },
    () =>
      ack({
        response_action: "update",
        view: statusModal(
          t.loginTitle(),
          t.loginChecking({ username: userText(username, 100) }),
          undefined,
          language,
        ),
      }),
  );
}
