import type { Installation } from "@slack/bolt";
import { z } from "zod";
import {
  type InstallationRecord,
  type InstallationRef,
  InstallationUnreadableError,
  installationKey,
  type RotatedBotToken,
} from "./contract/installations.js";
import { decryptSecret, encryptSecret } from "./sealing.js";

/**
 * A Slack installation as both backends keep it, so the migration copies it as it is: every
 * token (bot, bot refresh, user, user refresh) and the incoming-webhook URL sealed with
 * CREDENTIALS_KEY (sealing.ts), the installation key and the field bound as associated data, so a
 * sealed value copied to another installation or field does not open; the rest of the
 * Installation kept as JSON and zod-parsed on read.
 */

const SECRET_FIELDS = [
  "bot.token",
  "bot.refreshToken",
  "user.token",
  "user.refreshToken",
  "incomingWebhook.url",
] as const;
type SecretField = (typeof SECRET_FIELDS)[number];
type Secrets = Partial<Record<SecretField, string>>;

const secretsSchema = z.partialRecord(z.enum(SECRET_FIELDS), z.string());

/** The Installation without its secrets, as kept in clear. */
const bodySchema = z.object({
  team: z.object({ id: z.string(), name: z.string().optional() }).optional(),
  enterprise: z.object({ id: z.string(), name: z.string().optional() }).optional(),
  user: z.object({
    id: z.string(),
    scopes: z.array(z.string()).optional(),
    expiresAt: z.number().optional(),
  }),
  bot: z
    .object({
      id: z.string(),
      userId: z.string(),
      scopes: z.array(z.string()),
      expiresAt: z.number().optional(),
    })
    .optional(),
  incomingWebhook: z
    .object({
      channel: z.string().optional(),
      channelId: z.string().optional(),
      configurationUrl: z.string().optional(),
    })
    .optional(),
  appId: z.string().optional(),
  tokenType: z.literal("bot").optional(),
  enterpriseUrl: z.string().optional(),
  isEnterpriseInstall: z.boolean().optional(),
  authVersion: z.enum(["v1", "v2"]).optional(),
  metadata: z.string().optional(),
});
type Body = z.infer<typeof bodySchema>;

/** One installation as either backend keeps it: tokens sealed. */
export interface SealedInstallation {
  key: string;
  teamId: string | undefined;
  enterpriseId: string | undefined;
  isEnterpriseInstall: boolean;
  /** JSON of the Installation without secrets. */
  body: string;
  /** JSON of the sealed secrets by field. */
  secrets: string;
  installedAt: number;
  updatedAt: number;
  installedBy: string | undefined;
  authorizedAt: number;
  authorizedBy: string | undefined;
}

/** When and by whom: a fresh install's four are its own; a re-authorization keeps the first two. */
export interface InstallationTimes {
  installedAt: number;
  updatedAt: number;
  /** Default: installedAt (a fresh install). */
  authorizedAt?: number;
  /** Default: the installation's user (a fresh install). */
  installedBy?: string | undefined;
}

export function recordOf(sealed: SealedInstallation): InstallationRecord {
  return {
    installedAt: sealed.installedAt,
    installedBy: sealed.installedBy,
    authorizedAt: sealed.authorizedAt,
    authorizedBy: sealed.authorizedBy,
  };
}

/** The Slack user in a sealed body (rows stored before installed_by existed). */
export function bodyUserOf(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as { user?: { id?: unknown } }).user?.id;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

const nullToUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** Drops null and undefined (what InstallProvider may leave), so the body parses and stays small. */
function compact<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(
    Object.entries(object).filter(([, value]) => value !== undefined && value !== null),
  ) as T;
}

function associated(key: string, field: SecretField): string {
  return `slack-installation:${key}:${field}`;
}

/** Seals an installation for storage under `key`. */
export function sealInstallation(
  cryptoKey: Buffer,
  installation: Installation,
  times: InstallationTimes,
): SealedInstallation {
  const key = installationKey(installation);
  const plain: Secrets = compact({
    "bot.token": installation.bot?.token,
    "bot.refreshToken": nullToUndefined(installation.bot?.refreshToken),
    "user.token": nullToUndefined(installation.user?.token),
    "user.refreshToken": nullToUndefined(installation.user?.refreshToken),
    "incomingWebhook.url": installation.incomingWebhook?.url,
  });
  const body: Body = bodySchema.parse(
    compact({
      team: installation.team
        ? compact({ id: installation.team.id, name: installation.team.name })
        : undefined,
      enterprise: installation.enterprise
        ? compact({ id: installation.enterprise.id, name: installation.enterprise.name })
        : undefined,
      user: compact({
        id: installation.user.id,
        scopes: nullToUndefined(installation.user.scopes),
        expiresAt: nullToUndefined(installation.user.expiresAt),
      }),
      bot: installation.bot
        ? compact({
            id: installation.bot.id,
            userId: installation.bot.userId,
            scopes: installation.bot.scopes,
            expiresAt: nullToUndefined(installation.bot.expiresAt),
          })
        : undefined,
      incomingWebhook: installation.incomingWebhook
        ? compact({
            channel: installation.incomingWebhook.channel,
            channelId: installation.incomingWebhook.channelId,
            configurationUrl: installation.incomingWebhook.configurationUrl,
          })
        : undefined,
      appId: nullToUndefined(installation.appId),
      tokenType: nullToUndefined(installation.tokenType),
      enterpriseUrl: nullToUndefined(installation.enterpriseUrl),
      isEnterpriseInstall: nullToUndefined(installation.isEnterpriseInstall),
      authVersion: nullToUndefined(installation.authVersion),
      metadata: nullToUndefined(installation.metadata),
    }),
  );
  const secrets: Secrets = {};
  for (const field of SECRET_FIELDS) {
    const value = plain[field];
    if (value !== undefined) secrets[field] = encryptSecret(cryptoKey, value, associated(key, field));
  }
  return {
    key,
    teamId: installation.isEnterpriseInstall ? undefined : installation.team?.id,
    enterpriseId: installation.enterprise?.id,
    isEnterpriseInstall: installation.isEnterpriseInstall === true,
    body: JSON.stringify(body),
    secrets: JSON.stringify(secrets),
    installedAt: times.installedAt,
    updatedAt: times.updatedAt,
    installedBy: "installedBy" in times ? times.installedBy : body.user.id,
    authorizedAt: times.authorizedAt ?? times.installedAt,
    authorizedBy: body.user.id,
  };
}

function openSecrets(cryptoKey: Buffer | undefined, sealed: SealedInstallation): Secrets {
  if (!cryptoKey) throw new InstallationUnreadableError(sealed.key);
  const stored = secretsSchema.parse(JSON.parse(sealed.secrets));
  const opened: Secrets = {};
  try {
    for (const field of SECRET_FIELDS) {
      const value = stored[field];
      if (value !== undefined) opened[field] = decryptSecret(cryptoKey, value, associated(sealed.key, field));
    }
  } catch {
    throw new InstallationUnreadableError(sealed.key);
  }
  return opened;
}

/** Opens a stored installation into what @slack/oauth expects; throws InstallationUnreadableError on a wrong key. */
export function openInstallation(
  cryptoKey: Buffer | undefined,
  sealed: SealedInstallation,
): Installation<"v1" | "v2", boolean> {
  const secrets = openSecrets(cryptoKey, sealed);
  const body = bodySchema.parse(JSON.parse(sealed.body));
  const { bot, incomingWebhook, user, ...rest } = body;
  const botToken = secrets["bot.token"];
  const webhookUrl = secrets["incomingWebhook.url"];
  return {
    ...rest,
    team: body.team,
    enterprise: body.enterprise,
    user: compact({
      ...user,
      scopes: user.scopes,
      token: secrets["user.token"],
      refreshToken: secrets["user.refreshToken"],
    }),
    ...(bot && botToken !== undefined
      ? { bot: compact({ ...bot, token: botToken, refreshToken: secrets["bot.refreshToken"] }) }
      : {}),
    ...(incomingWebhook && webhookUrl !== undefined
      ? { incomingWebhook: { ...incomingWebhook, url: webhookUrl } }
      : {}),
  };
}

/** The sealed installation with a rotated bot token; undefined when it has no bot. */
export function withRotatedBotToken(
  cryptoKey: Buffer,
  sealed: SealedInstallation,
  tokens: RotatedBotToken,
  updatedAt: number,
): SealedInstallation | undefined {
  const body = bodySchema.parse(JSON.parse(sealed.body));
  if (!body.bot) return undefined;
  const secrets = secretsSchema.parse(JSON.parse(sealed.secrets));
  secrets["bot.token"] = encryptSecret(cryptoKey, tokens.token, associated(sealed.key, "bot.token"));
  secrets["bot.refreshToken"] = encryptSecret(
    cryptoKey,
    tokens.refreshToken,
    associated(sealed.key, "bot.refreshToken"),
  );
  body.bot.expiresAt = tokens.expiresAt;
  return { ...sealed, body: JSON.stringify(body), secrets: JSON.stringify(secrets), updatedAt };
}

export function refOf(sealed: SealedInstallation): InstallationRef {
  return {
    key: sealed.key,
    teamId: sealed.teamId,
    enterpriseId: sealed.enterpriseId,
    isEnterpriseInstall: sealed.isEnterpriseInstall,
    installedAt: sealed.installedAt,
  };
}

export function isReadable(cryptoKey: Buffer | undefined, sealed: SealedInstallation): boolean {
  try {
    openSecrets(cryptoKey, sealed);
    return true;
  } catch {
    return false;
  }
}

/** Where a fetched installation came from: its key and the stored authorization it was read from. */
export interface FetchedOrigin {
  key: string;
  installedAt: number;
  installedBy: string | undefined;
  authorizedAt: number;
}

/**
 * The installations a store handed out, by object identity. InstallProvider.authorize() refreshes
 * a rotating token by changing the fetched object's `bot` (or `user`) in place and storing a
 * shallow copy of it: such an object is a refresh of the installation fetched, not a new install.
 */
export class FetchedMarks {
  private readonly marks = new WeakMap<object, FetchedOrigin>();

  mark(installation: Installation, sealed: SealedInstallation): void {
    const mark: FetchedOrigin = {
      key: sealed.key,
      installedAt: sealed.installedAt,
      installedBy: sealed.installedBy,
      authorizedAt: sealed.authorizedAt,
    };
    this.marks.set(installation, mark);
    this.marks.set(installation.user, mark);
    if (installation.bot) this.marks.set(installation.bot, mark);
  }

  /** The installation this one was fetched as, when it is (a copy of) one this store handed out. */
  origin(installation: Installation): FetchedOrigin | undefined {
    const found =
      this.marks.get(installation) ??
      (installation.bot ? this.marks.get(installation.bot) : undefined) ??
      this.marks.get(installation.user);
    return found && found.key === installationKey(installation) ? found : undefined;
  }
}
