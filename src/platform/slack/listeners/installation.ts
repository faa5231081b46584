import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from "@slack/bolt";
import type { RemovalOutcome } from "../../workspaces/removal.js";

/** Multi-workspace mode: what the uninstall events need (workspaces/removal.ts). */
export interface InstallationDeps {
  uninstalled(
    ids: { teamId?: string; enterpriseId?: string; isEnterpriseInstall?: boolean },
    eventTimeMs: number,
  ): Promise<RemovalOutcome>;
}

/** The Events API envelope's fields an uninstall reads (Bolt's body types leave them loose). */
interface EventEnvelope {
  event_time?: number;
  team_id?: string;
  enterprise_id?: string;
  authorizations?: {
    team_id?: string | null;
    enterprise_id?: string | null;
    is_enterprise_install?: boolean;
  }[];
}

type UninstallArgs = SlackEventMiddlewareArgs<"app_uninstalled" | "tokens_revoked"> & AllMiddlewareArgs;
type TeamAccessRevokedArgs = SlackEventMiddlewareArgs & AllMiddlewareArgs;

/** Which installation an envelope is about: its authorization (org-wide or one team), else its team. */
function installationIds(body: EventEnvelope) {
  const auth = body.authorizations?.[0];
  const teamId = auth?.team_id ?? body.team_id;
  const enterpriseId = auth?.enterprise_id ?? body.enterprise_id;
  return {
    ...(teamId ? { teamId } : {}),
    ...(enterpriseId ? { enterpriseId } : {}),
    isEnterpriseInstall: auth?.is_enterprise_install === true,
  };
}

/** Slack's event_time is in seconds; an envelope without one is treated as happening now. */
function eventTimeMs(body: EventEnvelope): number {
  return typeof body.event_time === "number" ? body.event_time * 1000 : Date.now();
}

/** `app_uninstalled`: the workspace (or the org, for an org-wide install) removed fleetbot. */
export async function appUninstalled(args: UninstallArgs, deps: InstallationDeps): Promise<void> {
  const body = args.body as EventEnvelope;
  await deps.uninstalled(installationIds(body), eventTimeMs(body));
}

/**
 * `tokens_revoked`: the bot token is revoked (`tokens.bot` lists the bot users) — as good as an
 * uninstall. Only user tokens revoked: fleetbot keeps none it acts with, nothing to do.
 */
export async function tokensRevoked(args: UninstallArgs, deps: InstallationDeps): Promise<void> {
  const event = args.event as { tokens?: { bot?: string[] } };
  if ((event.tokens?.bot ?? []).length === 0) return;
  const body = args.body as EventEnvelope;
  await deps.uninstalled(installationIds(body), eventTimeMs(body));
}

/**
 * `team_access_revoked` (Enterprise Grid): the org's admins took fleetbot from these workspaces.
 * A workspace installed on its own is uninstalled; an org-wide installation stays (it still
 * serves the org's other workspaces, and its data is kept by enterprise, not by workspace).
 */
export async function teamAccessRevoked(args: TeamAccessRevokedArgs, deps: InstallationDeps): Promise<void> {
  const event = args.event as { team_ids?: unknown };
  const teams = Array.isArray(event.team_ids)
    ? event.team_ids.filter((t): t is string => typeof t === "string")
    : [];
  const at = eventTimeMs(args.body as EventEnvelope);
  for (const teamId of teams) await deps.uninstalled({ teamId, isEnterpriseInstall: false }, at);
}
