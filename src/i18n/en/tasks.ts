/**
 * English, tasks: what a queued, running, finished, failed or cancelled request says (progress,
 * the queue, the ack's place and estimate), and the fleet service's and fleetbot's failures by code
 * (src/platform/tasks/failures.ts stores the code, src/platform/slack/views/taskEnding.ts taskErrorText says it).
 * Values are inserted as given: `what` is a task's description (mrkdwn, escaped), durations are
 * `duration` of format.ts, times `slackDate`.
 */
import { number } from "../format.js";
import { count, plural } from "../plural.js";
import type { Section } from "../section.js";

/** A request's value by its rule subject, as the sentence's subject. */
const VALUES: Readonly<Record<string, string>> = {
  "code-uit": "The UIT code",
  "transport-id": "The transport id",
  vehicle: "The vehicle",
  "vat-number": "The VAT number",
  start: "The start",
  end: "The end",
  period: "The period",
  "validity-start": "The UIT validity start",
  "validity-end": "The UIT validity end",
  validity: "The UIT validity",
  "transmission-start": "The transmission start",
  "transmission-end": "The transmission end",
  transmission: "The transmission",
};
const valueEn = (subject: string): string => VALUES[subject] ?? subject;

/** One item of a list, by the list's rule subject. */
const ITEMS: Readonly<Record<string, string>> = {
  vehicles: "vehicle",
  statuses: "transport status",
  uits: "UIT code",
  "transport-ids": "transport id",
};
const itemEn = (subject: string): string => ITEMS[subject] ?? subject;

export const tasks = {
  // ---------- what a task is (describeTask) ----------
  /** A report with the vehicles it names (`title`: reports.title). */
  reportFor: ({ title, vehicles }: { title: string; vehicles: string }) => `${title} for ${vehicles}`,
  /** A report whose parameters no longer read. */
  reportAny: () => "Report",
  /** `all` typed for the vehicles, in a task's description. */
  allVehicles: () => "all vehicles",
  /** A stops report's `min=` when not the default (`duration`: format.ts's), so queued reports differing only in it read apart. */
  stopsAtLeast: ({ duration }: { duration: string }) => `stops of ${duration} or more`,
  actionStart: ({ uits }: { uits: string }) => `Start ${uits}`,
  actionPause: ({ uits }: { uits: string }) => `Pause ${uits}`,
  actionEnd: ({ uits }: { uits: string }) => `End ${uits}`,
  actionAny: ({ uits }: { uits: string }) => `Act on ${uits}`,
  accountCheck: ({ username }: { username: string }) => `Checking the fleet account ${username}`,
  transportList: () => "Transport list",
  transportFind: ({ uit }: { uit: string }) => `Looking up ${uit}`,
  transportFindAny: () => "Looking up the transport",
  transportCreate: ({ uit }: { uit: string }) => `Creating transport ${uit}`,
  transportUpdate: ({ uit }: { uit: string }) => `Updating transport ${uit}`,
  transportRemove: ({ uit }: { uit: string }) => `Removing ${uit}`,
  transportRemoveAny: () => "Removing the transport",

  // ---------- progress and the queue ----------
  /** Nothing left to ask the service (answered from the cached list). */
  answeringNow: () => "answering now",
  /** Calls made of all the task needs: "2/5 requests". */
  requestsDone: ({ done, total }: { done: number; total: number }) =>
    `${number("en", done)}/${count("en", total, { one: "request", other: "requests" })}`,
  /** `position`: 1 is the next (never shown: nextInLine). */
  positionInQueue: ({ position }: { position: number }) => `position ${number("en", position)} in the queue`,
  nextInLine: () => "next in line",
  /** An estimate (`duration` of format.ts). */
  waitAbout: ({ duration }: { duration: string }) => `about ${duration}`,
  waitUnderSecond: () => "under a second",
  /** An estimate of what remains once calls were made: "about 3 min left". */
  waitLeft: ({ wait }: { wait: string }) => `${wait} left`,
  pacingUnknown: () => "The fleet service answers one request at a time per account.",
  /** The account's spacing between two calls, in whole seconds (a whole number of minutes from 2 min). */
  pacingSeconds: (seconds: number) =>
    plural("en", seconds, {
      one: "The fleet service answers one request every second per account.",
      other: `The fleet service answers one request every ${number("en", seconds)} seconds per account.`,
    }),
  pacingMinutes: (minutes: number) =>
    plural("en", minutes, {
      one: "The fleet service answers one request every minute per account.",
      other: `The fleet service answers one request every ${number("en", minutes)} minutes per account.`,
    }),
  /** The ack of a task identical to one already waiting. */
  alreadyQueued: ({ what }: { what: string }) => `${what}: already queued; it runs once.`,
  queued: ({ what }: { what: string }) => `${what}: queued.`,
  /** A modal's status line: ", position 3" after "queued". */
  queuedPosition: ({ position }: { position: number }) => `, position ${number("en", position)}`,
  done: ({ what }: { what: string }) => `${what}: done.`,
  /** `account`: the fleet account's user name, escaped. */
  queueEmpty: ({ account }: { account: string }) => `Nothing is waiting for the fleet account *${account}*.`,
  queueTitle: ({ account, total }: { account: string; total: number }) =>
    `*Queue of ${account}*: ${count("en", total, { one: "request", other: "requests" })}`,
  /** A queue entry's state: `state` is help.homeTaskState. */
  queueEntryState: ({ state, done, total }: { state: string; done: number; total: number }) =>
    `${state}, ${number("en", done)}/${count("en", total, { one: "request", other: "requests" })}`,
  /** `user`: a Slack mention; `time`: a Slack date token. */
  queueAskedBy: ({ user, time }: { user: string; time: string }) => `asked by ${user} at ${time}`,
  queueRefresh: () => "Refresh",
  cancel: () => "Cancel",
  alreadyFinished: () => "That request has already finished.",

  // ---------- endings ----------
  /** `user`: a Slack mention of who clicked Cancel. */
  cancelledBy: ({ what, user }: { what: string; user: string }) => `${what}: cancelled by ${user}.`,
  cancelled: ({ what }: { what: string }) => `${what}: cancelled.`,
  cancelledDetail: () => "Calls already sent were answered; nothing else was asked.",
  /** `what` may be bold; `message`: the failure's text (taskErrorText). */
  failed: ({ what, message }: { what: string; message: string }) => `${what} failed: ${message}`,
  /** `id`: the correlation id, as code. */
  supportId: ({ id }: { id: string }) => `For support: correlation id ${id}`,
  /** `size`: megabytes, one decimal ("12.3 MB"). */
  resultTooLarge: ({ what, size }: { what: string; size: string }) =>
    `${what}: done, but its result (${size}) is too large to keep. Ask again for a shorter period or fewer vehicles.`,
  resultExpired: ({ what }: { what: string }) =>
    `${what}: this result is no longer kept (large results are kept a day after their answer). Run the command again to see it.`,

  // ---------- failures by code (TaskError.code) ----------
  failedDefault: () => "The request failed.",
  internal: () => "Something went wrong inside fleetbot; the details are in its log.",
  /** `username`: the fleet account, escaped. */
  credentialsUser: ({ username }: { username: string }) =>
    `Your linked fleet account ${username} can no longer be read: fleetbot's credentials key was changed. Link it again with /fleet login (or /fleet logout to use the workspace account).`,
  credentialsWorkspace: ({ username }: { username: string }) =>
    `The workspace's fleet account ${username} can no longer be read: fleetbot's credentials key was changed. Someone allowed to set it must link it again with /fleet login workspace.`,
  /** `endpoint`: the fleet service's endpoint (a code, "stops"). */
  ruleMaxVehicles: ({ endpoint, max, given }: { endpoint: string; max: number; given: number }) =>
    `A ${endpoint} request takes at most ${count("en", max, { one: "vehicle", other: "vehicles" })}; ${number("en", given)} were given.`,
  ruleMaxPeriod: ({ endpoint, days }: { endpoint: string; days: number }) =>
    `A ${endpoint} request covers at most ${count("en", days, { one: "day", other: "days" })}; split the period.`,
  ruleStopMargin: () => "The minimum stop duration must be a whole number of minutes, at least 1.",
  /**
   * A value a request needs, missing or wrong (`subject`: RuleSubject of src/platform/fleet/errors.ts; an
   * unknown one is shown as its code). The forms catch these first; these words are the last net.
   */
  ruleRequired: ({ subject }: { subject: string }) => `${valueEn(subject)} is required.`,
  ruleInvalidDate: ({ subject }: { subject: string }) => `${valueEn(subject)} is not a valid date.`,
  ruleOrder: ({ subject }: { subject: string }) => `${valueEn(subject)} must start before it ends.`,
  ruleEmptyListOf: ({ subject }: { subject: string }) => `Name at least one ${itemEn(subject)}.`,
  ruleEmptyValue: ({ subject }: { subject: string }) => `Every ${itemEn(subject)} must be non-empty.`,
  ruleWholeIds: ({ subject }: { subject: string }) =>
    `${subject === "statuses" ? "Status" : "Vehicle"} ids must be whole numbers.`,
  ruleInvalidPaging: ({ subject }: { subject: string }) =>
    `${subject === "page-index" ? "pageIndex" : "pageSize"} must be a whole number, 0 or more.`,
  /** Any other request rule (`rule`: its code): fleetbot built a request the service would refuse. */
  ruleOther: ({ rule }: { rule: string }) =>
    `fleetbot did not send a request the fleet service would refuse (rule ${rule}). Support has the details.`,
  /** `reasons`: the service's codes with their parameters ("UitNotFound (X)"). */
  badRequest: ({ reasons }: { reasons: string }) =>
    `The fleet service refused the request as invalid (${reasons}).`,
  badRequestBare: () => "The fleet service refused the request as invalid.",
  unauthorizedLogin: () =>
    "The fleet service did not accept this username and password, or the user is inactive.",
  unauthorizedPasswordChanged: () =>
    "The password of this fleet account was changed, and this link still has the old one: it no longer reads anything. Link the account again with its new password: /fleet login.",
  unauthorizedExpired: () =>
    "The fleet session expired and could not be renewed. Link the fleet account again with /fleet login.",
  unauthorizedVehicles: () => "At least one of the listed vehicles is not accessible to this fleet account.",
  unauthorizedAccess: () => "This fleet account has no rights for this request.",
  rateLimited: () => "The fleet service limits how often this account may ask; the request will be retried.",
  application: ({ reasons }: { reasons: string }) => `The fleet service could not do this: ${reasons}.`,
  applicationBare: () => "The fleet service could not do this.",
  transportTimeout: () => "The fleet service did not answer in time. Try again in a few minutes.",
  transportNetwork: () => "The fleet service could not be reached. Try again in a few minutes.",
  transportHttp: () => "The fleet service had an internal problem. Try again in a few minutes.",
  transportMalformed: () =>
    "The fleet service sent an answer fleetbot does not understand. Support has the details.",

  // ---------- the store, Slack's refusals, the status modal ----------
  cannotSave: () => ":warning: fleetbot cannot save requests right now, nothing was queued.",
  cannotSaveDetail: () =>
    "Its storage is full or read-only; the operator is told by /healthz. Try again in a few minutes.",
  cannotQueue: () => ":warning: fleetbot cannot queue requests right now, nothing was queued.",
  cannotQueueDetail: () =>
    "It has lost its connection to the queue its replicas share; the operator is told by /healthz. Try again in a minute.",
  /** A modal's title (at most 24 characters). */
  notSavedTitle: () => "Not saved",
  /** `code`: Slack's error code; `id`: the task's id. */
  refusedFiles: ({ what, code, id }: { what: string; code: string; id: string }) =>
    `:warning: The files of ${what} could not be sent: Slack refused them (${code}). Task ${id}.`,
  refusedAnswer: ({ what, code, id }: { what: string; code: string; id: string }) =>
    `:warning: fleetbot could not show ${what}: Slack refused the answer (${code}). Try a shorter request; support can look it up by task ${id}.`,
  /** Under a modal's summary: where the answer went (`where`: one of answerIn…). */
  fullAnswerIn: ({ where }: { where: string }) => `The full answer is ${where}.`,
  answerInDm: () => "in your direct messages with fleetbot",
  /** `channel`: a Slack channel mention. */
  answerInChannel: ({ channel }: { channel: string }) => `in ${channel}`,
  answerInTheChannel: () => "in the channel",
  /** Earlier cards of an edited transport updated too; `places`: where (channels, answerInDm's words…). */
  cardsUpdated: ({ count: n, places }: { count: number; places: string }) =>
    `Updated in place: ${count("en", n, { one: "earlier card", other: "earlier cards" })} (${places}).`,
  placeDm: () => "your direct messages",
  placeList: () => "your transport list",
  /** A command the grammar knows and no listener handles. */
  commandUnavailable: () => "That command is not available yet.",
  commandUnavailableDetail: () => "/fleet help lists what is.",
} satisfies Section;
