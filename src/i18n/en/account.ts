/**
 * English, the account commands: `/fleet login`, `logout`, `whoami`, the login form, the link's
 * result, the installer's welcome, and `/fleet language` (CONTRACT.md).
 */
import type { Language } from "../language.js";
import type { LanguageSource } from "../resolve.js";
import type { Section } from "../section.js";
import { common } from "./common.js";

const SOURCES: Readonly<Record<LanguageSource, string>> = {
  user: "your choice",
  workspace: "this workspace's default: you have not chosen one",
  slack: "from your Slack language: you have not chosen one",
  configured: "fleetbot's default: you have not chosen one",
};

export const account = {
  // ---------- /fleet language (src/features/account/slack/language.ts) ----------
  /** `source`: where the language came from (src/i18n/resolve.ts). */
  languageCurrent: ({ language, source }: { language: Language; source: LanguageSource }) =>
    `Your language is *${common.languageName(language)}* (${SOURCES[source]}).`,
  languageHowToChange: () =>
    "Change it with `/fleet language ro` (Romanian) or `/fleet language en` (English); `/fleet limba ro` works too.",
  languageChosen: ({ language }: { language: Language }) =>
    `Your language is now ${common.languageName(language)}.`,
  languageChosenDetail: () => "For Romanian: `/fleet language ro` (or `/fleet limba ro`).",
  languageWorkspaceDefault: ({ language }: { language: Language }) =>
    `This workspace's default language is now ${common.languageName(language)}: everyone here who has not chosen their own gets it.`,
  /** The setter's own language, when it is not the workspace's new default. */
  languageWorkspaceYours: ({ yours, source }: { yours: Language; source: LanguageSource }) =>
    `Yours stays ${common.languageName(yours)}${source === "user" ? " (your choice)" : ""}.`,
  languageWorkspaceDetail: () =>
    "Anyone can still choose their own with `/fleet language ro` or `/fleet language en`.",
  languageBySingle: ({ configured }: { configured: Language }) =>
    `This fleetbot serves one workspace: its default language is set by whoever runs it (DEFAULT_LANGUAGE, now ${common.languageName(configured)}).`,
  languageWorkspaceRefused: () =>
    "Only whoever installed fleetbot here, or a workspace admin or owner, can set the workspace's default language.",
  languageAdminUnknown: () =>
    "Slack did not say in time whether you are a workspace admin: try `/fleet language workspace` again in a moment.",
  languageChooseYours: () => "Choose your own with `/fleet language ro` or `/fleet language en`.",
  languageWorkspaceAskAdmin: () =>
    "Ask a workspace admin or owner to set it: running Add to Slack again gives no rights. Choose your own with `/fleet language ro` or `/fleet language en`.",
  languageOrgRefused: () =>
    "fleetbot is installed for the whole Enterprise Grid org here: only an org admin or owner can set the org's default language (a workspace admin cannot).",
  languageOrgAskAdmin: () =>
    "Ask an org admin or owner to set it. Choose your own with `/fleet language ro` or `/fleet language en`.",

  // ---------- who acts (every family) ----------
  noAccount: () => "You have not linked a fleet account, and this workspace has none configured.",
  linkYours: () => "Link yours with /fleet login.",
  notYours: () => "This message belongs to someone else.",

  // ---------- /fleet login, logout, whoami (src/features/account/slack/listeners.ts) ----------
  linkingDisabled: () =>
    "Linking your own fleet account is not enabled here: the operator has not set CREDENTIALS_KEY (the key that encrypts stored passwords).",
  linkingDisabledMeanwhile: () => "Your commands run as the workspace account meanwhile.",
  workspaceAccountByOperator: () =>
    "This fleetbot serves one workspace: its workspace account is set by whoever runs it (FLEET_USERNAME and FLEET_PASSWORD).",
  workspaceAccountRefused: () =>
    "Only whoever installed fleetbot here, or a workspace admin or owner, can set the workspace's fleet account.",
  workspaceAdminUnknown: () =>
    "Slack did not say in time whether you are a workspace admin: try `/fleet login workspace` again in a moment.",
  workspaceAccountAskAdmin: () =>
    "Ask a workspace admin or owner to set it (running Add to Slack again gives no rights), or link your own account with /fleet login.",
  orgAccountRefused: () =>
    "fleetbot is installed for the whole Enterprise Grid org here: only an org admin or owner can set the org's fleet account (a workspace admin cannot).",
  orgAdminUnknown: () => "Slack did not say in time whether you are an org admin: try again in a moment.",
  orgAccountAskAdmin: () =>
    "Ask an org admin or owner to set it, or link your own account with /fleet login.",
  externalUserRefused: () =>
    "You are in this channel from another organisation, so fleetbot does not act for you here: in this workspace it acts only for this workspace's people and with their fleet accounts.",
  externalUserWhatToDo: () =>
    "Use /fleet from your own workspace: there you act as the fleet account you link (/fleet login) or your workspace's, in your own language. If fleetbot is not installed there, ask your workspace admin to add it with Add to Slack.",
  linkYourOwn: () => "Link your own with /fleet login.",
  linkYourOwnAccount: () => "Link your own account with /fleet login.",
  unlinked: () => "Your fleet account is unlinked and its password deleted.",
  hadNoLink: () => "You had no linked fleet account.",
  /** `username`: the workspace account, escaped. */
  nowWorkspaceAccount: ({ username }: { username: string }) =>
    `Your commands now run as the workspace account ${username}.`,
  whoamiLinked: ({ username }: { username: string }) =>
    `Your commands run as the fleet account *${username}* (linked by you).`,
  whoamiWorkspace: ({ username }: { username: string }) =>
    `Your commands run as the fleet account *${username}* (the workspace account).`,
  unlinkHint: () => "Unlink with /fleet logout.",

  // ---------- the login form (at most 24 characters in a title, 75 in a button) ----------
  loginTitle: () => "Link fleet account",
  loginTitleWorkspace: () => "Workspace account",
  loginSubmit: () => "Link",
  loginIntro: () =>
    "Link your own fleet-service account: fleetbot then acts with your rights. The password is checked with a real login, then stored encrypted.",
  loginIntroWorkspace: () =>
    "The workspace's fleet-service account: everyone here who has not linked their own acts with its rights. The password is checked with a real login, then stored encrypted.",
  loginUsername: () => "User name or e-mail",
  loginPassword: () => "Password",
  loginPasswordHint: () => "Slack has no password field: this modal is seen only by you.",
  /** Under the password after a refusal; `reason`: linkRefused's words. */
  loginRefusedHint: ({ reason }: { reason: string }) => `⚠️ ${reason} Check the password, then Link again.`,
  loginUsernameMissing: () => "Enter your fleet-service user name or e-mail.",
  loginPasswordMissing: () => "Enter your fleet-service password.",
  loginNotEnabled: () => "Linking is not enabled (no CREDENTIALS_KEY).",
  /** `time`: a Slack time token. */
  loginTooMany: ({ time }: { time: string }) =>
    `:no_entry: Too many link attempts: try again at ${time}. Nothing was sent to the fleet service.`,
  /** `username`: escaped. */
  loginChecking: ({ username }: { username: string }) =>
    `:hourglass_flowing_sand: Checking *${username}* with the fleet service… The answer appears here (and, once linked, in a direct message).`,

  // ---------- the link's result (account-link task) ----------
  linkedUser: ({ username }: { username: string }) =>
    `:white_check_mark: Linked: your commands now run as the fleet account *${username}*.`,
  linkedWorkspace: ({ username }: { username: string }) =>
    `:white_check_mark: Linked: everyone in this workspace who has not linked their own account now acts as the fleet account *${username}*.`,
  /** The refusal's reason `login` (AccountLinkResult). */
  linkRefusedLogin: () =>
    "The fleet service did not accept this user name and password (or the user is inactive).",
  /**
   * Too many wrong passwords for the user name from anyone (LinkFailures): nothing was sent, and
   * nothing is said about whether the account exists. `wait`: a duration ("14 min").
   */
  linkTooManyFailures: ({ wait }: { wait: string }) =>
    `:no_entry: Too many wrong passwords were tried for this account recently, so fleetbot did not check this one with the fleet service. Try again in ${wait}.`,
  linkTryAgain: () => "Try again with /fleet login.",
  linkTryAgainWorkspace: () => "Try again with /fleet login workspace.",

  // ---------- the installer's welcome (src/platform/slack/views/installation.ts) ----------
  /** `team`: the workspace's name, escaped. */
  welcomeInstalledIn: ({ team }: { team: string }) =>
    `:wave: fleetbot is installed in *${team}*. First, set the fleet account your workspace uses: type \`/fleet login workspace\` (you, or a workspace admin, can do it).`,
  welcomeInstalled: () =>
    ":wave: fleetbot is installed. First, set the fleet account your workspace uses: type `/fleet login workspace` (you, or a workspace admin, can do it).",
  welcomeNext: () =>
    "Then anyone here can start with `/fleet help`, or `/fleet where B-123-ABC`. People with their own fleet-service login can link it with `/fleet login`; the others act as the workspace account. Transport alerts: `/fleet alerts subscribe #channel`.",
} satisfies Section;
