/**
 * What the sandbox page shows, read from the fake Slack: the conversations the sandbox user
 * sees, their messages (ephemeral ones only when meant for that user), the user's open modal
 * stack and Home tab, and the files shared with them. Plain JSON for the browser.
 */

import { type UsageLine, usageLines, type VehicleExamples, withVehicles } from "../../commands/help.js";
import type { Language } from "../../i18n/language.js";
import type { FakeSlack } from "../fakeSlack/index.js";
import type { FakeChannel, FakeMessage, Json, JsonObject } from "../fakeSlack/types.js";
import { dmIdFor } from "../fakeSlack/workspace.js";

export interface SandboxChannel {
  id: string;
  /** "general", "alerts", or the bot's name for the DM. */
  name: string;
  kind: "channel" | "dm";
}

export interface SandboxFile {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  size: number;
  /** Where the page downloads it: GET /sandbox/files?id=… */
  url: string;
  isImage: boolean;
}

export interface SandboxMessage {
  ts: string;
  threadTs?: string;
  user: string;
  userName: string;
  isBot: boolean;
  text: string;
  blocks?: Json[];
  files?: SandboxFile[];
  ephemeral: boolean;
  /** "(edited)": an update changed what a person sees (an update that changes nothing is not shown). */
  edited: boolean;
  /** Updates that changed what a person sees (the page flashes the message at each). */
  revisions: number;
  replyCount: number;
  origin: string;
}

export interface SandboxModal {
  id: string;
  /** The view as Slack holds it: title, submit, close, blocks, state, hash. */
  view: JsonObject;
  /** Field errors of the last `response_action: "errors"`, by block_id. */
  errors: Record<string, string>;
}

export interface SandboxState {
  version: number;
  user: { id: string; name: string; realName: string; tz: string };
  bot: { id: string; name: string };
  team: { name: string };
  channels: SandboxChannel[];
  messages: Record<string, SandboxMessage[]>;
  /** Mentions and channel links: id → name. */
  names: Record<string, string>;
  /** The user's open modal stack, root first (the last one is visible). */
  modals: SandboxModal[];
  home: JsonObject | null;
  /**
   * The language the sandbox user last chose through this page (its switch, or a
   * `/fleet language ro|en` typed in its composer): the page's own words follow it. Null while
   * none was chosen here since the bot started (the page then keeps the one it remembers).
   */
  language: Language | null;
  /** Slash command hints, in `language` (English when none), as the help writes them. */
  commands: { command: string; syntax: string; does: string; example: string }[];
  /** A plate of the demo account, for the page's own examples. */
  examplePlate?: string;
  /** How many Block Kit or protocol violations the fake Slack recorded (a bot bug in real Slack). */
  violations: { source: string; error: string; reasons: string[] }[];
}

export const SANDBOX_FILES_PATH = "/sandbox/files";

const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  webp: "image/webp",
};
const OTHER_TYPES: Record<string, string> = {
  csv: "text/csv",
  gpx: "application/gpx+xml",
  json: "application/json",
  txt: "text/plain",
  pdf: "application/pdf",
};

export function mimeTypeOf(name: string): string {
  const ext = name.toLowerCase().split(".").pop() ?? "";
  return IMAGE_TYPES[ext] ?? OTHER_TYPES[ext] ?? "application/octet-stream";
}

/** The conversations of the page: the public channels, then the DM with the bot. */
export function sandboxChannels(fake: FakeSlack, userId: string): SandboxChannel[] {
  const ws = fake.workspace;
  const channels: SandboxChannel[] = [];
  const publicOnes = [...ws.channels.values()].filter(
    (c: FakeChannel) => !c.isIm && !c.isPrivate && c.members.includes(userId),
  );
  // #general first, as Slack lists it on top of a fresh workspace.
  publicOnes.sort((a, b) =>
    a.name === "general" ? -1 : b.name === "general" ? 1 : a.name.localeCompare(b.name),
  );
  for (const c of publicOnes) channels.push({ id: c.id, name: c.name, kind: "channel" });
  const dm = ws.channels.get(dmIdFor(userId));
  if (dm)
    channels.push({ id: dm.id, name: ws.users.get(fake.options.botUserId)?.name ?? "fleetbot", kind: "dm" });
  return channels;
}

export function buildState(
  fake: FakeSlack,
  userId: string,
  version: number,
  /** The demo account's own vehicles, for examples that work (issue 24: no made-up plates). */
  examples?: VehicleExamples,
  /** What the sandbox user chose through the page, if anything (see SandboxState.language). */
  language?: Language,
): SandboxState {
  const ws = fake.workspace;
  const user = ws.users.get(userId);
  if (!user) throw new Error(`sandbox: unknown user ${userId}`);
  const channels = sandboxChannels(fake, userId);
  const messages = sandboxMessages(fake, userId, channels);

  const names: Record<string, string> = {};
  for (const u of ws.users.values()) names[u.id] = u.realName || u.name;
  for (const c of ws.channels.values()) if (!c.isIm) names[c.id] = c.name;

  const { modals, home } = openViews(fake, userId);

  const hint = (command: string) => (l: UsageLine) => ({
    command,
    ...l,
    example: withVehicles(l.example, examples),
  });
  const lang = language ?? "en";
  const commands = [
    ...usageLines("fleet", lang).map(hint("/fleet")),
    ...usageLines("etransport", lang).map(hint("/etransport")),
  ];

  return {
    version,
    user: { id: user.id, name: user.name, realName: user.realName, tz: user.tz },
    bot: { id: fake.options.botUserId, name: ws.users.get(fake.options.botUserId)?.name ?? "fleetbot" },
    team: { name: fake.options.teamName },
    channels,
    messages,
    names,
    modals,
    home,
    language: language ?? null,
    commands,
    ...(examples?.plates[0] ? { examplePlate: examples.plates[0] } : {}),
    violations: fake.violations
      .slice(-5)
      .map((v) => ({ source: v.source, error: v.error, reasons: v.reasons })),
  };
}

/** Each conversation's messages as the user sees them (their own ephemeral ones included), files linked. */
function sandboxMessages(
  fake: FakeSlack,
  userId: string,
  channels: readonly SandboxChannel[],
): Record<string, SandboxMessage[]> {
  const ws = fake.workspace;
  const filesById = new Map(fake.files.map((f) => [f.id, f]));
  const fileOf = (id: string, name: string, title: string): SandboxFile => {
    const stored = filesById.get(id);
    const mimetype = mimeTypeOf(name);
    return {
      id,
      name,
      title,
      mimetype,
      size: stored?.bytes?.length ?? stored?.declaredLength ?? 0,
      url: `${SANDBOX_FILES_PATH}?id=${encodeURIComponent(id)}`,
      isImage: mimetype.startsWith("image/"),
    };
  };
  const messageOf = (m: FakeMessage): SandboxMessage => {
    const author = ws.users.get(m.user);
    return {
      ts: m.ts,
      ...(m.threadTs ? { threadTs: m.threadTs } : {}),
      user: m.user,
      userName: author?.realName ?? author?.name ?? m.user,
      isBot: author?.isBot ?? m.botId !== undefined,
      text: m.text,
      ...(m.blocks ? { blocks: m.blocks } : {}),
      ...(m.files ? { files: m.files.map((f) => fileOf(f.id, f.name, f.title)) } : {}),
      ephemeral: m.ephemeral,
      edited: m.visibleRevisions > 0,
      revisions: m.visibleRevisions,
      replyCount: m.replyCount,
      origin: m.origin,
    };
  };
  const messages: Record<string, SandboxMessage[]> = {};
  for (const channel of channels) {
    messages[channel.id] = fake
      .messages(channel.id)
      .filter((m) => !m.ephemeral || m.visibleTo === userId)
      .map(messageOf);
  }
  return messages;
}

/** The user's App Home, and the stack of modals open now (Slack shows one stack at a time). */
function openViews(fake: FakeSlack, userId: string): { modals: SandboxModal[]; home: JsonObject | null } {
  let modals: SandboxModal[] = [];
  let home: JsonObject | null = null;
  const views = fake.views;
  for (const record of views.values()) {
    if (record.user !== userId) continue;
    if (record.type === "home") {
      home = record.view;
      continue;
    }
    // Every open view reports its whole stack; the newest stack wins (Slack shows one modal at a time).
    if (record.open && record.stack.length > 0 && record.stack.at(-1) === record.id) {
      modals = record.stack.flatMap((id) => {
        const view = views.get(id);
        return view ? [{ id, view: view.view, errors: view.errors ?? {} }] : [];
      });
    }
  }
  return { modals, home };
}
