/** Domain shapes of the fake Slack workspace: what it stores and what it records. */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface FakeUserInput {
  id: string;
  name: string;
  realName?: string;
  /** IANA zone, e.g. Europe/Bucharest. */
  tz?: string;
  /** A workspace admin (users.info `is_admin`). */
  isAdmin?: boolean;
  /** The workspace's owner (users.info `is_owner`). */
  isOwner?: boolean;
  /** The workspace's primary owner (users.info `is_primary_owner`; an owner and admin too). */
  isPrimaryOwner?: boolean;
  /** In a team of an Enterprise Grid org: an org admin (users.info `enterprise_user.is_admin`). */
  isOrgAdmin?: boolean;
  /** In a team of an Enterprise Grid org: an org owner (users.info `enterprise_user.is_owner`). */
  isOrgOwner?: boolean;
}

export interface FakeUser {
  id: string;
  name: string;
  realName: string;
  tz: string;
  isBot: boolean;
  isAdmin?: boolean;
  isOwner?: boolean;
  isPrimaryOwner?: boolean;
  isOrgAdmin?: boolean;
  isOrgOwner?: boolean;
  /**
   * Slack Connect: a user of another organisation's workspace, seen in this one through a shared
   * channel. Its own team (and org), which Slack puts in `user.team_id` and users.info.
   */
  external?: { teamId: string; enterpriseId?: string };
}

export interface FakeChannelInput {
  id: string;
  name: string;
  isPrivate?: boolean;
  botIsMember?: boolean;
  /** User ids; default every configured user. */
  members?: string[];
}

export interface FakeChannel {
  id: string;
  name: string;
  isPrivate: boolean;
  isIm: boolean;
  /** For a DM: the user at the other end. */
  imUser?: string;
  botIsMember: boolean;
  members: string[];
  /** Slack Connect: shared with another organisation's workspace (`is_ext_shared`). */
  isExtShared?: boolean;
}

export interface FakeFileRef {
  id: string;
  name: string;
  title: string;
}

/** How a message came to be: tests can tell a response_url answer from a Web API post. */
export type MessageOrigin =
  | "chat.postMessage"
  | "chat.postEphemeral"
  | "response_url"
  | "ack"
  | "files.completeUploadExternal";

export interface FakeMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  /** Author: the bot user for everything the bot posts. */
  user: string;
  botId?: string;
  text: string;
  blocks?: Json[];
  files?: FakeFileRef[];
  /** Ephemeral messages are seen by `visibleTo` only and cannot be changed with chat.update. */
  ephemeral: boolean;
  visibleTo?: string;
  origin: MessageOrigin;
  edited?: { user: string; ts: string };
  replyCount: number;
  /** How many times the message was replaced (chat.update, replace_original). */
  revisions: number;
  /** How many of those replacements changed what a person sees (the blocks, or the text without blocks). */
  visibleRevisions: number;
}

export interface RecordedCall {
  method: string;
  /** Merged query, form or JSON body; JSON-string arguments (blocks, view, files) decoded; token removed. */
  args: Record<string, unknown>;
  at: number;
  ok: boolean;
  error?: string;
  response: Record<string, unknown>;
}

export interface Violation {
  /** Web API method, "response_url", "upload", or "ack:<payload type>". */
  source: string;
  error: string;
  reasons: string[];
  at: number;
  payload: unknown;
}

export interface FakeView {
  id: string;
  user: string;
  type: "modal" | "home";
  /** The view as Slack returns it (id, hash, state, root_view_id, ...). */
  view: JsonObject;
  open: boolean;
  /** Ids of the open views of this modal, root first, top last ([] once closed, [id] for home). */
  stack: string[];
  /** Earlier versions, oldest first. */
  history: JsonObject[];
  /** Field errors of the last `response_action: "errors"`. */
  errors?: Record<string, string>;
}

export interface ResponseRecord {
  url: string;
  channel: string;
  user: string;
  body: unknown;
  at: number;
  status: number;
  error?: string;
  /** ts of the message posted or changed. */
  ts?: string;
}

export interface FakeFile {
  id: string;
  name: string;
  title: string;
  declaredLength: number;
  bytes?: Buffer;
  created: number;
  /** Set once files.completeUploadExternal shared it. */
  channels: string[];
  completed: boolean;
}

export type ChangeEvent =
  | { kind: "call"; call: RecordedCall }
  | { kind: "message"; channel: string; ts: string; action: "posted" | "updated" | "deleted" }
  | {
      kind: "view";
      viewId: string;
      action: "opened" | "updated" | "pushed" | "closed" | "published" | "errors";
    }
  | { kind: "response"; response: ResponseRecord }
  | { kind: "file"; fileId: string }
  | { kind: "violation"; violation: Violation }
  | { kind: "socket"; action: "connected" | "disconnected" }
  | { kind: "reset" };
