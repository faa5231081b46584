/**
 * English, RO e-Transport: the UIT, its validity, and the statuses of a transport, of its GPS
 * transmission and of a change request. Names are the meanings of shared/fleet-api.md's tables
 * (TransmissionStatusCode, ChangeRequestStatusCode, transport status ids); the advice is
 * shared/etransport-notes.md's "usual cause / what to do", from TrackGPS's descriptions of each
 * status (docs.trackgps.ro/en/etransport/managment/transmissionstatus).
 */
import type { KnownTransportFailure } from "../../features/etransport/failures.js";
import type { TransportAction } from "../../features/etransport/types.js";
import type { VatProblem } from "../../features/etransport/vat.js";
import type {
  CHANGE_REQUEST_STATUS_CODES,
  TRANSMISSION_STATUS_CODES,
  TransportStatusId,
} from "../../platform/fleet/schemas.js";
import type { AuditAction } from "../../platform/store/contract/index.js";
import { number } from "../format.js";
import { plural } from "../plural.js";
import type { Section } from "../section.js";

/** A transmission status code fleet-api.md lists (an unknown one is shown as the code itself). */
export type TransmissionCode = (typeof TRANSMISSION_STATUS_CODES)[number];
/** The codes that have something to do about them. */
export type AdvisedTransmissionCode = Exclude<TransmissionCode, "Active" | "Finalized">;
export type ChangeRequestCode = (typeof CHANGE_REQUEST_STATUS_CODES)[number];

const TRANSMISSION: Readonly<Record<TransmissionCode, string>> = {
  Active: "Active transmission",
  Finalized: "Transmission finalized",
  NotInRomania: "Not on Romanian territory",
  NotStarted: "Transmission pending",
  Error: "Transmission error",
  MissingETransportConfiguration: "e-Transport configuration error",
  OldData: "Data older than 6 hours",
  NoGPSCoordinates: "No GPS signal",
  WithoutTransmission: "No active GPS transmission",
};

const ADVICE: Readonly<Record<AdvisedTransmissionCode, string>> = {
  NotStarted: "start the transport before departure",
  WithoutTransmission: "vehicle parked with the engine off, or a tracking device fault",
  Error:
    "wrong plate on a manually entered transport, or the platform not receiving; check the plate, contact support",
  NotInRomania: "expected abroad; positions are not sent outside Romania",
  MissingETransportConfiguration:
    "the vehicle's e-Transport setup at the tracking service is incomplete; contact support",
  OldData:
    "no GSM signal for over 6 hours: the data can no longer be sent to the platform; use the ANAF app as fallback",
  NoGPSCoordinates: "check the device and its antenna; use the ANAF app as fallback",
};

const TRANSPORT_STATUS: Readonly<Record<TransportStatusId, string>> = {
  1: "Pending",
  2: "In Progress",
  3: "Completed",
  4: "Auto Completed",
  5: "Error",
  6: "Paused",
};

const CHANGE_REQUEST: Readonly<Record<ChangeRequestCode, string>> = {
  RequestCreated: "Request created",
  RequestSent: "Request sent successfully",
  RequestErrorSent: "Error sending request",
  ResponseSuccess: "Completed successfully",
  ResponseError: "Completed with error",
};

/** The actions a card's buttons run as one task, and their bulk form (the remove button asks first). */
export type TransportBulkAction = "start" | "pause" | "end" | "remove";
/** The states `/etransport list` filters on (the grammar's words, stored with the list). */
export type TransportListState = "pending" | "active" | "paused" | "completed";
/** What a transport list shows: open ones (the default), all, some states, or a label as given. */
export type TransportListFilter =
  | { kind: "open" }
  | { kind: "all" }
  | { kind: "states"; states: readonly TransportListState[] }
  | { kind: "label"; label: string };
/** The pickers of the transport form a "not a date" error can be on, by what to pick instead. */
export type NotADateHint = "today" | "afterStart" | "orEmpty";
/** The free-text fields that have a length limit. */
export type LimitedField = "startLocation" | "endLocation" | "notes";

/** The meaning of each transmission status as the card says it ("Active — positions are being sent"). */
const MEANING: Readonly<Record<TransmissionCode, string>> = {
  Active: "positions are being sent",
  NotStarted: "waiting for transmission",
  WithoutTransmission: "no active GPS transmission",
  Error: "data transmission error",
  NotInRomania: "not on Romanian territory",
  MissingETransportConfiguration: "e-Transport configuration error",
  OldData: "data older than 6 hours",
  NoGPSCoordinates: "no GPS signal",
  Finalized: "transmission finalized",
};

const BUTTON: Readonly<Record<TransportAction, string>> = {
  start: "Start",
  pause: "Pause",
  end: "End",
  edit: "Edit",
  remove: "Remove",
};

const ACTION_WORDS: Readonly<
  Record<TransportBulkAction, { ok: string; failed: string; title: string; past: string; underWay: string }>
> = {
  start: { ok: "started", failed: "not started", title: "Start", past: "Started", underWay: "Starting…" },
  pause: { ok: "paused", failed: "not paused", title: "Pause", past: "Paused", underWay: "Pausing…" },
  end: { ok: "ended", failed: "not ended", title: "End", past: "Ended", underWay: "Ending…" },
  remove: { ok: "removed", failed: "not removed", title: "Remove", past: "Removed", underWay: "Removing…" },
};

const HISTORY_DONE: Readonly<Record<AuditAction, string>> = {
  create: "Created",
  update: "Edited",
  start: "Started",
  pause: "Paused",
  end: "Ended",
  remove: "Removed",
};

const HISTORY_ASKED: Readonly<Record<AuditAction, string>> = {
  create: "Create",
  update: "Edit",
  start: "Start",
  pause: "Pause",
  end: "End",
  remove: "Removal",
};

const LIST_STATE: Readonly<Record<TransportListState, string>> = {
  pending: "pending",
  active: "in progress",
  paused: "paused",
  completed: "completed",
};

const transportsNoun = (n: number | undefined): string =>
  n === undefined ? "transports" : plural("en", n, { one: "transport", other: "transports" });

/** "open transports (…)", "pending transport", "transports paused or completed" (no number; English only). */
export function listPhrase(filter: TransportListFilter, n: number | undefined): string {
  const noun = transportsNoun(n);
  switch (filter.kind) {
    case "open":
      return `open ${noun} (pending, in progress or paused)`;
    case "all":
      return `${noun} in any state`;
    case "label":
      return `${filter.label} ${noun}`;
    case "states": {
      const states = [...new Set(filter.states.map((w) => LIST_STATE[w]))];
      if (states.length === 1 && states[0] !== LIST_STATE.active) return `${states[0]} ${noun}`;
      // "a or b", "a, b or c" (a list, not a plural).
      const listed = states.length > 1 ? `${states.slice(0, -1).join(", ")} or ${states.at(-1)}` : states[0];
      return `${noun} ${listed}`;
    }
  }
}

/** Parameters as the summary names them: "Y45R-…, B-1" or the fallback when there is none. */
const list = (params: readonly string[], fallback: string): string =>
  params.length === 0 ? fallback : params.join(", ");
/** " Y45R…" with a leading space, or "" when no parameter names it. */
const named = (params: readonly string[]): string => (params.length === 0 ? "" : ` ${params.join(", ")}`);

const FAILURES: Readonly<
  Record<KnownTransportFailure, (p: readonly string[]) => { summary: string; advice: string }>
> = {
  TransportNotFound: (p) => ({
    summary: `The fleet service does not know the transport ${list(p, "asked for")}.`,
    advice: "Check the UIT (see `/etransport list all`); it may have been removed.",
  }),
  TransportAlreadyExists: (p) => ({
    summary: `A transport with UIT ${list(p, "this UIT")} already exists.`,
    advice: "Edit the existing one with `/etransport edit <UIT>` instead of adding it again.",
  }),
  VehicleNotFound: (p) => ({
    summary: `The fleet service does not know the vehicle ${list(p, "chosen")}.`,
    advice: "Choose the vehicle again from the list; it may have been removed from the account.",
  }),
  InvalidTransportState: (p) => ({
    summary:
      p.length >= 2
        ? `Transport ${p[0]} is ${p[1]}: that action is not possible in this state.`
        : `Transport${named(p)} is not in a state that allows this action.`,
    advice: "Start works on Pending or Paused, Pause on In Progress, End on In Progress or Paused.",
  }),
  TransportFinalized: (p) => ({
    summary: `Transport${named(p)} has ended (Completed or Auto Completed) and can no longer be modified.`,
    advice: "For a new journey, request a new UIT and add it with `/etransport new`.",
  }),
  UitValidityNotStarted: (p) => ({
    summary: `The validity of UIT${named(p)} has not started yet.`,
    advice: "Start the transport once its validity has begun, or correct the validity start with Edit.",
  }),
  UitValidityEnded: (p) => ({
    summary: `The validity of UIT${named(p)} has ended.`,
    advice: "An expired UIT may not be used: request a new UIT on the e-Transport platform.",
  }),
  AccessDenied: (p) => ({
    summary: `The linked fleet account has no rights to ${list(p, "this transport or vehicle")}.`,
    advice: "Ask the fleet administrator for access, or use an account that has it.",
  }),
};

function failureOf(code: string, p: readonly string[]): { summary: string; advice: string } {
  const known = Object.hasOwn(FAILURES, code) ? FAILURES[code as KnownTransportFailure] : undefined;
  if (known) return known(p);
  return {
    summary: `The fleet service answered ${code || "an unnamed error"}${p.length > 0 ? ` (${p.join(", ")})` : ""}.`,
    advice: "Check the transport with `/etransport list all`; if it persists, contact support.",
  };
}

function vatError(v: VatProblem): string {
  switch (v.problem) {
    case "missing":
      return `Enter the carrier's VAT number, e.g. ${v.example}.`;
    case "cifLength":
      return `A Romanian CIF has 2 to 10 digits; ${v.length} given. Example: ${v.example}.`;
    case "cifChecksum":
      return `${v.vat} is not a valid Romanian CIF: its check digit is wrong. Example: ${v.example}.`;
    case "prefix":
      return `Use a Romanian CIF (${v.example}) or an EU VAT number with its country prefix (${v.euExample}).`;
    case "shape":
      return `${v.vat} does not look like a ${v.prefix} VAT number. Example: ${v.example}.`;
  }
}

const NOT_A_DATE: Readonly<Record<NotADateHint, string>> = {
  today: "Not a date and time: pick one, e.g. today 08:00.",
  afterStart: "Not a date and time: pick one, e.g. 5 days after the start.",
  orEmpty: "Not a date and time: pick one, or leave it empty.",
};

const LIMITED: Readonly<Record<LimitedField, string>> = {
  startLocation: "The start location has",
  endLocation: "The end location has",
  notes: "The notes have",
};

export const etransport = {
  uitCode: () => "UIT code",
  uitValidity: () => "UIT validity",
  /** `when`: a date from format.ts (`slackDate` or `dateTime`). */
  validityEnds: ({ when }: { when: string }) => `UIT validity ends ${when}`,
  /** The request to change a transport's plate(s) at the platform (etransport-notes.md). */
  changeRequest: () => "Change request",
  transportStatus: (id: TransportStatusId) => TRANSPORT_STATUS[id],
  /** A status id fleet-api.md does not list. */
  unknownTransportStatus: ({ id }: { id: string }) => `Unknown status (${id})`,
  transmissionStatus: (code: TransmissionCode) => TRANSMISSION[code],
  transmissionAdvice: (code: AdvisedTransmissionCode) => ADVICE[code],
  changeRequestStatus: (code: ChangeRequestCode) => CHANGE_REQUEST[code],

  // ---------- service failures (src/features/etransport/failures.ts codes) ----------
  /**
   * A failure of the fleet service, summary and advice as one text: `errorCode` as the service
   * sent it, `parameters` its errorParameters (UITs already dashed). An unknown code is named.
   */
  failure: (errorCode: string, parameters: readonly string[]) => {
    const f = failureOf(errorCode, parameters);
    return `${f.summary} ${f.advice}`;
  },
  /** What happened only (beside a UIT in an action's result). */
  failureSummary: (errorCode: string, parameters: readonly string[]) =>
    failureOf(errorCode, parameters).summary,
  /** What to do only. */
  failureAdvice: (errorCode: string, parameters: readonly string[]) =>
    failureOf(errorCode, parameters).advice,

  // ---------- the transport card ----------
  vehicleNotNamed: () => "vehicle not named",
  /** The transmission line's label (mrkdwn). */
  transmissionLabel: () => "*Transmission:*",
  /** What a transmission status means, as the card says it after the code. */
  transmissionMeaning: (code: TransmissionCode) => MEANING[code],
  noTransmissionStatus: () => "no transmission status reported",
  unknownTransmissionStatus: ({ code }: { code: string }) => `unknown transmission status “${code}”`,
  changeRequestLabel: () => "*Vehicle change request:*",
  unknownChangeRequestStatus: ({ code }: { code: string }) => `unknown change request status “${code}”`,
  platformAnswer: () => "*Platform answer:*",
  notesLabel: () => "*Notes:*",
  /** `from`, `to`: dates (slackDate), "?" when unknown; `relative`: validityStartsIn… or "". */
  validityLine: ({ from, to, relative }: { from: string; to: string; relative: string }) =>
    `*UIT validity:* ${from} → ${to}${relative}`,
  /** `span`: a duration (format.ts). */
  validityStartsIn: ({ span }: { span: string }) => ` (starts in ${span})`,
  /** Two days or more, in whole days. */
  validityStartsInDays: (days: number) =>
    ` (starts in ${number("en", days)} ${plural("en", days, { one: "day", other: "days" })})`,
  validityEndsIn: ({ span }: { span: string }) => ` (ends in ${span})`,
  /** Two days or more, in whole days. */
  validityEndsInDays: (days: number) =>
    ` (ends in ${number("en", days)} ${plural("en", days, { one: "day", other: "days" })})`,
  validityEnded: () => " (ended)",
  lastSent: ({ when }: { when: string }) => `Last sent to the platform ${when}`,
  lastGps: ({ when }: { when: string }) => `last GPS ${when}`,
  transmissionWindow: ({ from, to }: { from: string; to: string }) => `transmission ${from} → ${to}`,
  transmittingSince: ({ from }: { from: string }) => `transmitting since ${from}`,
  transmissionUntil: ({ to }: { to: string }) => `transmission until ${to}`,
  /** `plates`: the trailers' plates, joined; `count` how many. */
  trailers: ({ count, plates }: { count: number; plates: string }) =>
    `${plural("en", count, { one: "trailer", other: "trailers" })} ${plates}`,

  // ---------- buttons and their confirmations ----------
  button: (action: TransportAction) => BUTTON[action],
  cancel: () => "Cancel",
  /** `uit`: "UIT Y45R-… (B-12-ABC)". */
  /** A UIT named in a confirmation ("UIT Y45R-…"). */
  uitNamed: ({ uit }: { uit: string }) => `UIT ${uit}`,
  removeConfirmTitle: () => "Remove transport?",
  removeConfirmLong: ({ uit }: { uit: string }) =>
    `Remove the transport with ${uit}? This is irreversible: the transport is deleted from the fleet service and its GPS transmission stops.`,
  removeConfirmShort: ({ uit }: { uit: string }) => `Remove ${uit}? Irreversible: it is deleted.`,
  removeConfirmButton: () => "Remove",
  endConfirmTitle: () => "End transport?",
  endConfirmLong: ({ uit }: { uit: string }) =>
    `End the transport with ${uit}? Once ended it can no longer be modified.`,
  endConfirmShort: ({ uit }: { uit: string }) => `End ${uit}? It can no longer be modified.`,
  endConfirmButton: () => "End transport",

  // ---------- the list ----------
  /** "3 open transports (pending, in progress or paused)", "1 pending transport". */
  listWhat: (filter: TransportListFilter, count: number) =>
    `${number("en", count)} ${listPhrase(filter, count)}`,
  /** Nothing listed; `search` "" when none. */
  listEmpty: (filter: TransportListFilter, search: string) =>
    `No ${listPhrase(filter, undefined)}${search ? ` matching “${search}”` : ""}.`,
  /** Nothing on this page, though there are `total`. */
  listEmptyPage: (filter: TransportListFilter, search: string, page: number, total: number) =>
    `No ${listPhrase(filter, undefined)} on page ${number("en", page)}${search ? ` matching “${search}”` : ""}; there are ${number("en", total)} in all.`,
  listTry: () =>
    "Try `/etransport list all`, search with `/etransport list all B-12-ABC`, or add one with `/etransport new`.",
  listRange: ({ first, last, total }: { first: number; last: number; total: number }) =>
    `${number("en", first)}–${number("en", last)} of ${number("en", total)}`,
  listPage: ({ page, pages }: { page: number; pages: number }) =>
    `page ${number("en", page)} of ${number("en", pages)}`,
  listSearch: ({ search }: { search: string }) => `search “${search}”`,
  listOnlyFirst: ({ shown }: { shown: number }) =>
    `only the first ${number("en", shown)} of this page are shown; ask for smaller pages`,
  /** The list message's text: `what` is listWhat, `search` "" when none, `page` 0 when one page. */
  listText: ({ what, search, page, pages }: { what: string; search: string; page: number; pages: number }) =>
    `e-Transport · ${what}${search ? ` matching “${search}”` : ""}${page > 0 ? ` (page ${number("en", page)} of ${number("en", pages)})` : ""}`,
  previous: () => "◀ Previous",
  next: () => "Next ▶",

  // ---------- actions and their results ----------
  underWay: (action: TransportBulkAction) => ACTION_WORDS[action].underWay,
  /** Where a lookup stands when the queue gave no estimate. */
  lookupUnderWay: () => "under way",
  /** `wait`: where the task stands ("next in line, about 30 s"). */
  lookingUp: ({ uit, wait }: { uit: string; wait: string }) => `Looking up UIT ${uit}: ${wait}`,
  /** "Started the transport.", "Start refused for 1 of 1.", "Started 2 of 3; 1 refused." */
  actionHeadline: (action: TransportBulkAction, total: number, succeeded: number) => {
    const w = ACTION_WORDS[action];
    const refused = total - succeeded;
    if (total === 0) return `${w.title}: no transport was named.`;
    if (refused === 0)
      return plural("en", total, {
        one: `${w.past} the transport.`,
        other: `${w.past} all ${number("en", total)} transports.`,
      });
    if (succeeded === 0) return `${w.title} refused for ${number("en", refused)} of ${number("en", total)}.`;
    return `${w.past} ${number("en", succeeded)} of ${number("en", total)}; ${number("en", refused)} refused.`;
  },
  actionDone: (action: TransportBulkAction) => ACTION_WORDS[action].ok,
  actionNotDone: (action: TransportBulkAction) => ACTION_WORDS[action].failed,
  acceptedAsWhole: () => "the service accepted the request as a whole, without an answer for each UIT",
  noReason: () => "no reason given",
  moreLines: ({ count }: { count: number }) =>
    `…and ${number("en", count)} more; see \`/etransport list all\`.`,
  /** `id`: the correlation id, already formatted (mrkdwn code). */
  forSupport: ({ id }: { id: string }) => `For support: correlation id ${id}`,
  moreTransports: ({ count }: { count: number }) =>
    `${number("en", count)} more ${plural("en", count, { one: "transport", other: "transports" })} not shown: see \`/etransport list all\`.`,

  // ---------- remove ----------
  removeButton: () => "Remove transport",
  removeQuestion: () =>
    ":warning: *Remove this transport?* It is deleted from the fleet service and its GPS transmission stops. *This cannot be undone.*",
  removeQuestionText: ({ uit }: { uit: string }) =>
    `Remove the transport with UIT ${uit}? This cannot be undone.`,
  removeCancelled: ({ uit }: { uit: string }) =>
    `Not removed: the transport with UIT ${uit} stays as it was.`,
  notRemoved: () => "Not removed.",

  // ---------- task answers (src/features/renderers.ts) ----------
  saved: ({ uit, created, alreadyThere }: { uit: string; created: boolean; alreadyThere: boolean }) =>
    `:white_check_mark: Transport ${uit}${uit ? " " : ""}${created ? "created" : "updated"}${alreadyThere ? " (it was already there: nothing sent twice)" : ""}.`,
  notSaved: ({ created }: { created: boolean }) =>
    `:x: The fleet service did not confirm that the transport was ${created ? "created" : "updated"}.`,
  removed: ({ uit }: { uit: string }) =>
    `:wastebasket: Transport ${uit} removed. Its GPS transmission to the tax authority stopped.`,
  notRemovedByService: ({ uit }: { uit: string }) =>
    `:x: The fleet service did not confirm the removal of ${uit}.`,
  notFound: ({ uit, search }: { uit: string; search: string }) =>
    `No transport with UIT ${uit} is visible to your fleet account. Check the code, or list them: /etransport list all ${search}`,
  notFoundTitle: () => "Transport not found",
  /** `status`: transportStatus, lower-cased. */
  finished: ({ uit, status }: { uit: string; status: string }) =>
    `Transport ${uit} is finished (${status}): it can no longer be modified.`,
  cannotEditTitle: () => "Cannot edit",
  editing: ({ uit }: { uit: string }) => `Editing transport ${uit}.`,
  transportTitle: ({ uit }: { uit: string }) => `Transport ${uit}`,

  // ---------- the listener's own answers ----------
  noAccount: () => "You have no fleet account to act with.",
  noAccountHint: () => "Link yours with /fleet login.",
  buttonOutOfDate: () => "That button is out of date: run the command again.",
  /** `form`: "edit" or "remove" as typed; `example` a UIT. */
  nameTheTransport: ({ form, example }: { form: string; example: string }) =>
    `Name the transport: \`/etransport ${form} &lt;UIT&gt;\`, e.g. \`/etransport ${form} ${example}\`.`,
  nameTheTransportHint: () => "/etransport list shows your transports with buttons.",
  editTitle: () => "Edit transport",
  newTitle: () => "New transport",
  lookingUpForEdit: ({ uit }: { uit: string }) =>
    `:hourglass_flowing_sand: Looking up ${uit} with the fleet service…`,
  linkFirst: () => "Link a fleet account first: /fleet login.",
  notYourChannel: () => "This form belongs to a channel you are not in.",
  /** `warnings`: the form's warnings, joined. */
  submitAgain: ({ warnings }: { warnings: string }) => `${warnings} Submit again to save anyway.`,
  /** `what`: the task (describeTask); `place`: queuePosition's text; `destination`: cardDestination. */
  saveQueued: ({ what, place, destination }: { what: string; place: string; destination: string }) =>
    `:hourglass_flowing_sand: ${what}: queued${place}. ${destination}`,
  saveAlreadyQueued: ({ what }: { what: string }) => `${what} is already queued; it runs once.`,
  /** `channel`: a channel id, "" for the direct messages. */
  cardPosted: ({ channel }: { channel: string }) =>
    `The transport card will be posted ${channel ? `in <#${channel}>` : "in your direct messages with fleetbot"}.`,
  updatedCardPosted: ({ channel }: { channel: string }) =>
    `The updated card will be posted ${channel ? `in <#${channel}>` : "in your direct messages with fleetbot"}, and the earlier cards of this transport updated where fleetbot can.`,

  // ---------- audit history ----------
  historyDone: (action: AuditAction) => HISTORY_DONE[action],
  historyAsked: (action: AuditAction) => HISTORY_ASKED[action],
  historyNoUser: () => "no Slack user recorded",
  /** `said`: the service's own words (escaped), "" when none; `code` (mrkdwn) "" when none. */
  historyOk: ({ said }: { said: string }) => `:white_check_mark: done${said ? ` (${said})` : ""}`,
  historyRefused: ({ code, said }: { code: string; said: string }) =>
    `:x: refused by the fleet service${code ? ` ${code}` : ""}${said ? `: ${said}` : ""}`,
  /** A change the fleet service answered `false` to (fleetbot's code NotConfirmed). */
  historyNotConfirmed: () => ":x: not confirmed by the fleet service",
  historyUnknown: ({ code, said }: { code: string; said: string }) =>
    `:grey_question: sent, no usable answer${code ? ` ${code}` : ""}: the change may or may not have been made${said ? ` (${said})` : ""}`,
  historyChanges: ({ count }: { count: number }) =>
    `${number("en", count)} recorded ${plural("en", count, { one: "change", other: "changes" })}`,
  /** `uit`, `account`: mrkdwn code; `changes`: historyChanges. */
  historyHeading: ({ uit, account, changes }: { uit: string; account: string; changes: string }) =>
    `*History of ${uit}* (fleet account ${account}): ${changes}, newest first.`,
  historyText: ({ uit, changes }: { uit: string; changes: string }) => `History of ${uit}: ${changes}.`,
  historyOlder: ({ count }: { count: number }) =>
    `${number("en", count)} older ${plural("en", count, { one: "change is", other: "changes are" })} not shown: one Slack message has room for the newest only.`,
  historyNone: ({ uit, account }: { uit: string; account: string }) =>
    `No changes of ${uit} are recorded for fleet account ${account}.`,
  /** `list`, `example`: commands (mrkdwn code). */
  historyNoneHint: ({ list, example }: { list: string; example: string }) =>
    `fleetbot records the transports your fleet account creates, edits, starts, pauses, ends or removes through it. Find yours with ${list}, then e.g. ${example}.`,
  historyUnreadable: () => "fleetbot cannot read its history right now. Try again in a minute.",
  historyChecking: () =>
    "fleetbot is checking your fleet account with the fleet service first (one request, up to half a minute). Ask again then.",
  historyLinkRefused: () =>
    "The fleet service did not accept your linked account's password, and fleetbot shows fleet data only to a working link. Link the account again with /fleet login.",

  // ---------- the create / edit form ----------
  /** Modal titles: at most 24 characters. */
  modalTitleNew: () => "New e-Transport",
  modalTitleEdit: () => "Edit e-Transport",
  modalSubmitNew: () => "Add transport",
  modalSubmitEdit: () => "Save",
  checkBeforeSaving: () => ":warning: *Check before saving:*",
  /** `uit` (mrkdwn code), `status`: the transport's status name. */
  editUitLine: ({ uit, status }: { uit: string; status: string }) =>
    `*UIT:* ${uit} · ${status}\nThe UIT cannot change. Saving replaces every field below: empty ones are cleared.`,
  formIntro: ({ zone }: { zone: string }) =>
    `Copy the details of the UIT issued on the e-Transport platform. Times are in your Slack time zone (${zone}).`,
  vehicleLabel: () => "Vehicle",
  vehicleHint: () => "Type part of the plate or name.",
  vehicleHintNone: () => "No vehicles are listed for this account yet.",
  vehiclePlaceholder: ({ example }: { example: string }) => `Plate or name, e.g. ${example}`,
  unnamedVehicle: () => "(unnamed vehicle)",
  uitHint: () => "16 letters and digits; dashes and spaces are ignored.",
  vatLabel: () => "Carrier VAT number",
  vatHintNew: () => "Romanian CIF (with or without RO) or an EU VAT number with its country prefix.",
  vatHintEdit: () =>
    "The fleet service does not show the VAT number of a transport: enter it again. Romanian CIF or EU VAT.",
  validityStartLabel: () => "UIT valid from",
  validityStartHint: ({ zone }: { zone: string }) => `As issued with the UIT. Your time zone: ${zone}.`,
  validityEndLabel: () => "UIT valid until",
  validityEndHint: () => "5 days for high-fiscal-risk goods, 15 days otherwise.",
  transmissionStartLabel: () => "GPS transmission start",
  transmissionStartHint: () => "Optional; within the UIT validity. Start sets it anyway.",
  transmissionEndLabel: () => "GPS transmission end",
  transmissionEndHint: () => "Optional; within the UIT validity.",
  startLocationLabel: () => "Start location",
  startLocationPlaceholder: () => "e.g. Ploiești, depot",
  endLocationLabel: () => "End location",
  endLocationPlaceholder: () => "e.g. Cluj-Napoca",
  trailerLabel: ({ n }: { n: number }) => `Trailer ${n} plate`,
  /** `example`: a plate. */
  examplePlaceholder: ({ example }: { example: string }) => `e.g. ${example}`,
  notesFieldLabel: () => "Notes",

  // ---------- form errors (src/features/etransport/form.ts, vat.ts codes) ----------
  errorVehicleMissing: ({ example }: { example: string }) =>
    `Choose the vehicle: type part of its plate or name, e.g. ${example}.`,
  errorUitMissing: ({ example }: { example: string }) =>
    `Enter the UIT issued by the e-Transport platform, e.g. ${example}.`,
  errorUitLength: ({ expected, length, example }: { expected: number; length: number; example: string }) =>
    `A UIT has ${number("en", expected)} letters and digits; this has ${number("en", length)}. Example: ${example}.`,
  errorUitCharacters: ({ example }: { example: string }) =>
    `A UIT has only letters and digits (dashes and spaces are ignored), e.g. ${example}.`,
  errorVat: (problem: VatProblem) => vatError(problem),
  errorValidityStartMissing: () => "Pick the start of the UIT validity, as issued with the UIT.",
  errorValidityEndMissing: () => "Pick the end of the UIT validity, as issued with the UIT.",
  errorNotADate: (hint: NotADateHint) => NOT_A_DATE[hint],
  /** `start`, `example`: dates (dateTime). */
  errorValidityEndBeforeStart: ({ start, example }: { start: string; example: string }) =>
    `The validity must end after it starts (${start}), e.g. ${example}.`,
  errorValidityExpired: ({ end }: { end: string }) =>
    `This UIT expired on ${end}: an expired UIT cannot be used. Request a new UIT.`,
  errorTransmissionStartBefore: ({ bound }: { bound: string }) =>
    `The transmission start must be within the UIT validity: on or after ${bound}.`,
  errorTransmissionStartAfter: ({ bound }: { bound: string }) =>
    `The transmission start must be within the UIT validity: by ${bound}.`,
  errorTransmissionEndBefore: ({ bound }: { bound: string }) =>
    `The transmission end must be within the UIT validity: on or after ${bound}.`,
  errorTransmissionEndAfter: ({ bound }: { bound: string }) =>
    `The transmission end must be within the UIT validity: by ${bound}.`,
  errorTransmissionEndBeforeStart: ({ start }: { start: string }) =>
    `The transmission must end after it starts (${start}), or leave the end empty.`,
  errorTooLong: (field: LimitedField, length: number, max: number) =>
    `${LIMITED[field]} ${number("en", length)} characters; at most ${number("en", max)}. Shorten it.`,
  /** `text`: what was typed (plain text, cut). */
  errorNotAPlate: ({ n, text }: { n: number; text: string }) =>
    `Trailer ${n}: “${text}” is not a plate. A plate is letters and digits, e.g. B-123-ABC or CJ-06-BDX; a foreign one 3–10 letters and digits, e.g. M-AB-1234.`,
  errorVehiclePlate: ({ n, example }: { n: number; example: string }) =>
    `Trailer ${n} has the vehicle's own plate. Enter the trailer's plate, e.g. ${example}.`,
  errorSameTrailer: () =>
    "Trailer 2 has the same plate as trailer 1. Leave it empty when there is one trailer.",

  // ---------- form warnings ----------
  /** `span`: a duration (format.ts). */
  warningOverMaxSpan: ({ span, maxDays }: { span: string; maxDays: number }) =>
    `The UIT validity is ${span} long: more than the legal ${number("en", maxDays)} days. Check the dates on the UIT.`,
  warningOverHighRiskSpan: ({ span, days }: { span: string; days: number }) =>
    `The UIT validity is ${span} long: over ${number("en", days)} days is legal only for intra-community and other operations, not for national transport of high-fiscal-risk goods.`,
  /** `span`: how far ahead (duration); `start`: a date. */
  warningFarAhead: ({ span, start, maxDays }: { span: string; start: string; maxDays: number }) =>
    `The validity starts in ${span} (${start}): a UIT may be requested at most ${number("en", maxDays)} days before the transport. Check the start date.`,
  warningStartInPast: ({ start }: { start: string }) =>
    `The validity start (${start}) is in the past. Check it is the start declared on the UIT.`,
  warningExpired: ({ end }: { end: string }) =>
    `The UIT validity ended on ${end}: an expired UIT may not be used.`,
} satisfies Section;
