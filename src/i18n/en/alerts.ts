/**
 * English, transport alerts (src/alerts codes and kinds → words): the channel alert, its
 * resolved edit and thread reply, the grouped alert and the daily digest (src/features/alerts/slack/views/
 * alerts.ts, alertGroups.ts). Values are inserted as given: escape user text for mrkdwn before
 * passing it; dates are `slackDate` and durations `duration` of format.ts, in this language.
 */
import type { IncidentKind, ResolveReason } from "../../features/alerts/incidents.js";
import { number } from "../format.js";
import { count, plural } from "../plural.js";
import type { Section } from "../section.js";

const TITLES: Readonly<Record<IncidentKind, string>> = {
  transmission: "Transmission problem",
  changerequest: "Vehicle change request failed",
  expiry: "UIT validity ends soon",
  notstarted: "Transport not started",
  vanished: "No longer listed by the service",
  stalled: "Transmission stalled",
  powercut: "Power cut",
  zone: "In a zone",
  idle: "Idling",
  speeding: "Speeding",
  offline: "Vehicle offline",
  towed: "Moved with the engine off",
  afterhours: "Moving out of hours",
  temperature: "Reefer temperature out of range",
};

/** Why an incident of a kind ended when nothing more particular is known ("recovered"). */
const RECOVERED: Readonly<Record<IncidentKind, string>> = {
  transmission: "the transmission is back to normal",
  changerequest: "the change request no longer shows an error",
  expiry: "the UIT validity was extended",
  notstarted: "the transport was started",
  vanished: "the service lists the transport again",
  stalled: "positions reach the platform again",
  powercut: "the external power is back",
  zone: "the vehicle left the zone",
  idle: "the vehicle moved, or its engine was switched off",
  speeding: "the speed is back under the limit",
  offline: "positions arrive again",
  towed: "the engine is on, or the vehicle stands still",
  afterhours: "the vehicle stopped, or the working hours began",
  temperature: "the temperature is back inside the range",
};

const REASONS: Readonly<Record<Exclude<ResolveReason, "recovered">, string>> = {
  status: "the transport is no longer In Progress",
  gone: "the transport is no longer listed (ended, completed or removed)",
  completed: "the service shows the transport completed",
  removed: "the transport was removed through fleetbot",
  changed: "the problem changed: a new alert follows",
};

export const alerts = {
  /**
   * The alert on a transmission problem. TrackGPS names its notification for it "Data
   * Transmission Interruption to ANAF" (docs.trackgps.ro/en/etransport/managment/transmissionstatus).
   */
  transmissionInterrupted: () => "GPS transmission interrupted",
  /** The title of an alert of a kind. */
  title: (kind: IncidentKind) => TITLES[kind],
  /** The title of a transmission alert of a vehicle abroad on an international route (not a fault). */
  titleOutsideRomania: () => "Vehicle outside Romania",
  vehicleNotNamed: () => "vehicle not named",
  /** `status`: etransport.transmissionStatus, or the code itself when unknown. */
  transmissionLine: ({ code, status }: { code: string; status: string }) =>
    `*Transmission:* ${code} — ${status}`,
  domesticRouteAbroad: () =>
    "The route is within Romania, so the vehicle should not be abroad: positions are not reaching the platform. Check the vehicle's position and the tracking device; use the ANAF app as fallback.",
  /** `status`: etransport.changeRequestStatus, or changeRequestFailed when unknown. */
  changeRequestLine: ({ code, status }: { code: string; status: string }) =>
    `*Vehicle change request:* ${code} — ${status}`,
  changeRequestFailed: () => "failed",
  plateMustBeUpdated: () => "The plate on the UIT must be updated before the vehicle is back on the road.",
  validityEnds: ({ when }: { when: string }) => `*UIT validity ends* ${when}`,
  validityEnded: ({ when }: { when: string }) => `*UIT validity ends* ${when} (ended)`,
  expiredUitProhibited: () => "Using an expired UIT is prohibited: end the transport or request a new UIT.",
  /** `status`: etransport.transportStatus(1), "Pending". */
  plannedStart: ({ when, status }: { when: string; status: string }) =>
    `*Planned transmission start* ${when} — still ${status}`,
  startBeforeLeaving: () => "Start the transport before the vehicle leaves.",
  vanishedLine: ({ status }: { status: string }) =>
    `*No longer listed by the service:* it was ${status}, and it is not completed either.`,
  vanishedAdvice: () =>
    "It may be in Error, which the service hides: check it in TrackGPS now. Until it is fixed, positions may not reach ANAF.",
  /** `lasted`: how long when posted; `when`: the date token of the last position sent. */
  stalledSince: ({ lasted, when, code }: { lasted: string; when: string; code: string }) =>
    `*Nothing sent for ${lasted}* (last position sent ${when}), though the code says ${code}.`,
  /** What stalledSince says when the service gave no transmission code. */
  noCode: () => "nothing",
  stalledLimit: ({ left, when }: { left: string; when: string }) =>
    `*${left} left before the 6-hour limit* (${when}): positions older than that can no longer be sent (OldData).`,
  stalledLimitPassed: () => "*The 6-hour limit has passed:* these positions can no longer be sent (OldData).",
  stalledAdvice: () => "Check the vehicle's tracking device and its power; use the ANAF app as fallback.",
  since: ({ when }: { when: string }) => `*Since* ${when}`,
  factStatus: ({ status }: { status: string }) => `Status ${status}`,
  factLastGps: ({ when }: { when: string }) => `last GPS ${when}`,
  factLastSent: ({ when }: { when: string }) => `last sent to the platform ${when}`,
  /** The notification text of an alert; `vehicle` is " (plate)" or "". */
  alertText: ({
    mark,
    title,
    uit,
    vehicle,
    code,
  }: {
    mark: string;
    title: string;
    uit: string;
    vehicle: string;
    code: string;
  }) => `${mark} ${title}: UIT ${uit}${vehicle} — ${code}`,
  // ---------- buttons ----------
  buttonPause: () => "Pause",
  buttonEnd: () => "End",
  buttonShow: () => "Show transport",
  buttonMute: () => "Mute 24 h",
  buttonUnmute: () => "Unmute",
  endConfirmTitle: () => "End transport?",
  /** `vehicle` is " (plate)" or "". */
  endConfirmText: ({ uit, vehicle }: { uit: string; vehicle: string }) =>
    `End UIT ${uit}${vehicle}? It can no longer be modified.`,
  endConfirm: () => "End transport",
  endDeny: () => "Cancel",
  // ---------- resolved ----------
  /** Why an incident ended, in words. */
  resolveReason: (kind: IncidentKind, reason: ResolveReason) =>
    reason === "recovered" ? RECOVERED[kind] : REASONS[reason],
  resolved: () => "Resolved",
  /** `lasted`: a duration or a span of two ("2–6 min"). */
  resolvedSpan: ({ code, from, to, lasted }: { code: string; from: string; to: string; lasted: string }) =>
    `*${code}* from ${from} to ${to} — lasted *${lasted}*`,
  /** Said beside a span of durations: why it is not one figure. */
  betweenChecks: () => " (it ended between two alert checks)",
  resolvedText: ({ title, uit, lasted }: { title: string; uit: string; lasted: string }) =>
    `✅ Resolved: ${title}, UIT ${uit} — lasted ${lasted}`,
  resolvedReply: ({ when, reason, lasted }: { when: string; reason: string; lasted: string }) =>
    `✅ Resolved ${when}: ${reason}. It lasted ${lasted}`,
  resolvedReplyText: ({ reason, lasted }: { reason: string; lasted: string }) =>
    `✅ Resolved: ${reason}. It lasted ${lasted}`,
  /** The notification text of an alert whose own text is lost (its blocks edited after a click). */
  alertFallbackText: () => "Transport alert",
  // ---------- grouped ----------
  /** The title of a group of alerts of different kinds. */
  groupMixedTitle: () => "Transport alerts",
  transports: (n: number) => count("en", n, { one: "transport", other: "transports" }),
  groupResolvedPrefix: () => "Resolved · ",
  groupAllResolved: ({ n, longest }: { n: number; longest: string }) =>
    `*All ${n} resolved.* The longest lasted *${longest}*.`,
  groupOpen: (n: number) => `*${number("en", n)} open*`,
  groupResolvedCount: (n: number) => ` · ${number("en", n)} resolved`,
  groupSince: ({ when }: { when: string }) => ` · since ${when}`,
  groupButtonsInThread: () => "Buttons for each transport (Pause, End, Show, Mute) are in the thread.",
  groupMore: (n: number) => `…and ${n} more: each has its own reply in the thread.`,
  /** `transports`: the transports message. */
  groupContext: ({ transports }: { transports: string }) => `Grouped: ${transports} went wrong in one sweep.`,
  groupResolvedText: ({ title, transports }: { title: string; transports: string }) =>
    `✅ Resolved: ${title}, ${transports}`,
  // ---------- mute, on the alert in the channel (the alert's language) ----------
  mutedLine: ({ when, user }: { when: string; user: string }) => `🔕 Muted until ${when} by ${user}`,
  unmutedLine: ({ user }: { user: string }) => `🔔 Unmuted by ${user}`,
  // ---------- the subscription list ----------
  /** `language`: common.languageName. */
  subscriptionLanguage: ({ language }: { language: string }) => `alerts in ${language}`,
  subscriptionWorkspaceLanguage: () => "alerts in the workspace's language",
  // ---------- a post's last failure (stored as a code: publisher.ts storedFailure) ----------
  failureNotInChannel: () =>
    "fleetbot is not in this private channel: invite fleetbot to the private channel (/invite @fleetbot).",
  failureChannelNotFound: () =>
    "fleetbot cannot see this channel: if it is private, invite fleetbot to the private channel (/invite @fleetbot); otherwise check the channel still exists.",
  failureArchived: () => "The channel is archived: unarchive it or subscribe another channel.",
  failureRestricted: () => "Posting in this channel is restricted for apps: ask a workspace admin.",
  failureMissingScope: () =>
    "fleetbot lacks the chat:write.public permission: reinstall the app with the manifest's scopes.",
  failureRateLimited: () => "Slack rate limit: retried on the next poll.",
  failureMessageGone: () => "The alert message was deleted.",
  /** `code`: Slack's error code. */
  failureSlackRefused: ({ code }: { code: string }) => `Slack refused the message (${code}).`,
  failureOther: () =>
    "Posting failed (Slack could not be reached, or answered an error): retried on the next poll.",
  // ---------- daily digest ----------
  digestHeader: ({ account }: { account: string }) => `e-Transport digest · ${account}`,
  pausedPasswordChanged: ({ account, subscriber }: { account: string; subscriber: string }) =>
    `⏸️ Alerts of *${account}* are paused here: the fleet password changed, and this channel's subscription still holds the old one. ${subscriber} needs to link the account again with \`/fleet login\`; the alerts then come back by themselves.`,
  pausedWorkspacePasswordChanged: ({ account }: { account: string }) =>
    `⏸️ Alerts of *${account}* are paused here: the fleet password changed, and the workspace's account still holds the old one. A workspace admin needs to set it again with \`/fleet login workspace\` (with one configured workspace, whoever runs fleetbot updates \`FLEET_PASSWORD\`); the alerts then come back by themselves.`,
  pausedLinkAgain: ({ account, channel }: { account: string; channel: string }) =>
    `⚠️ The fleet service no longer accepts the password your link to *${account}* holds (it was changed). Until you link the account again with \`/fleet login\`, fleetbot reads nothing as it, and the alerts you subscribed ${channel} to are paused.`,
  digestTransports: ({ counts }: { counts: string }) => `*Transports:* ${counts}`,
  digestNoTransports: () => "no transport Pending, In Progress or Paused",
  digestMore: (n: number) => `…and ${n} more`,
  digestVanished: (n: number) => `${n} no longer listed`,
  digestStalled: (n: number) => `${number("en", n)} stalled`,
  /** `apart`: digestVanished and digestStalled joined, or "". */
  digestOpenTitle: ({ n, apart }: { n: number; apart: string }) =>
    `Open alerts (${n}${apart ? `: ${apart}` : ""})`,
  digestOpenLine: ({ title, code, when }: { title: string; code: string; when: string }) =>
    `${title}: ${code} since ${when}`,
  digestNoOpen: () => "no open alerts",
  digestExpiringTitle: (n: number) => `UIT validity ending within a day (${n})`,
  digestEnds: ({ when }: { when: string }) => `ends ${when}`,
  digestNone: () => "none",
  digestText: ({ open, apart, expiring }: { open: number; apart: string; expiring: number }) =>
    `e-Transport digest: ${count("en", open, { one: "open alert", other: "open alerts" })}${apart ? ` (${apart})` : ""}, ${count("en", expiring, { one: "UIT", other: "UITs" })} ending within a day`,
  // ---------- /fleet alerts list|subscribe|unsubscribe, to the one who typed it ----------
  /** `channel`: `<#C…>`; `account`: escaped. */
  subscriptionChannelAs: ({ channel, account }: { channel: string; account: string }) =>
    `${channel} as *${account}*`,
  /** `codes`: escaped and joined with ", ". */
  subscriptionCodes: ({ codes }: { codes: string }) => `codes ${codes}`,
  subscriptionEveryKind: () => "every transport alert kind",
  subscriptionExcept: ({ codes }: { codes: string }) => `except ${codes}`,
  /** `vehicles`: the first ones, escaped and joined; `more`: how many are not shown. */
  subscriptionVehicles: ({ vehicles, more }: { vehicles: string; more: number }) =>
    `vehicles ${vehicles}${more > 0 ? ` and ${number("en", more)} more` : ""}`,
  /** `duration`: format.ts duration. */
  subscriptionAfter: ({ duration }: { duration: string }) => `after ${duration}`,
  subscriptionStalledAfter: ({ duration }: { duration: string }) =>
    `stalled after ${duration} without a position`,
  subscriptionNoStalled: () => "no stalled alerts",
  /** `user`: `<@U…>`. */
  subscriptionBy: ({ user }: { user: string }) => `by ${user}`,
  subscriptionWorkspaceAccount: () => "workspace account",
  subscriptionsNone: () =>
    "No alert subscriptions. Subscribe a channel with `/fleet alerts subscribe #channel`.",
  /** `error`: postFailureText, escaped. */
  subscriptionLastFailed: ({ attempts, error }: { attempts: number; error: string }) =>
    `⚠️ last post failed (${number("en", attempts)}×): ${error}`,
  subscriptionsMore: (n: number) => `…and ${number("en", n)} more`,
  subscriptionsText: (n: number) =>
    count("en", n, { one: "alert subscription", other: "alert subscriptions" }),
  /** `description`: the subscription as the list describes it. */
  /** `account`: escaped; `description`: the subscription's settings without its channel and account. */
  subscribed: ({
    channel,
    account,
    description,
  }: {
    channel: string;
    account: string;
    description: string;
  }) => `🔔 ${channel} now gets alerts of *${account}*: ${description}.`,
  subscriptionUpdated: ({
    channel,
    account,
    description,
  }: {
    channel: string;
    account: string;
    description: string;
  }) => `🔔 Alerts of *${account}* in ${channel} updated: ${description}.`,
  unsubscribed: ({ channel }: { channel: string }) => `🔕 ${channel} no longer gets transport alerts.`,
  unsubscribedOf: ({ channel, account }: { channel: string; account: string }) =>
    `🔕 ${channel} no longer gets transport alerts of *${account}*.`,
  notSubscribed: ({ channel }: { channel: string }) => `${channel} had no alert subscription.`,
  notSubscribedFor: ({ channel, account }: { channel: string; account: string }) =>
    `${channel} had no alert subscription for *${account}*.`,
  notChannelMember: ({ channel }: { channel: string }) =>
    `:no_entry: You are not a member of ${channel}: only its members can change its alerts.`,
  notChannelMemberDetail: () => "Run the command in that channel once you have joined it.",
  membershipUnknown: ({ channel }: { channel: string }) =>
    `:warning: Slack did not say whether you are a member of ${channel}; nothing was changed.`,
  membershipUnknownDetail: () => "Try again in a minute.",
  configuredChannel: ({ channel }: { channel: string }) =>
    `:lock: ${channel} gets the workspace account's alerts from fleetbot's configuration (ALERTS_CHANNEL): it cannot be changed or removed from chat.`,
  configuredChannelDetail: () =>
    "Mute a transport's alerts with the Mute button on the alert; the operator can change ALERTS_CHANNEL.",
  /** Under a channel fleetbot cannot post in (the reason: a failure* message). */
  cannotPostDetail: () => "Invite fleetbot with /invite @fleetbot, then subscribe again.",
  /** `codes`: the unknown ones, escaped; `known`: the codes; `kinds`: the kind names. */
  filterUnknownCodes: ({
    n,
    codes,
    known,
    kinds,
  }: {
    n: number;
    codes: string;
    known: string;
    kinds: string;
  }) =>
    `${plural("en", n, { one: "Unknown alert code", other: "Unknown alert codes" })}: ${codes}. Known: ${known}, or a kind (${kinds}).`,
  filterMinRange: () => "The minimum duration must be between 0 and 1,440 minutes.",
  filterStaleRange: () => "stale= must be whole minutes from 0 (off) to 360.",
  filterExample: () => "Example: /fleet alerts subscribe Error OldData min=15",
  /** `option`: the option as typed, in code (`min=abc`). */
  optionMin: ({ option }: { option: string }) => `${option} must be whole minutes from 0 to 1,440.`,
  optionStale: ({ option, example }: { option: string; example: string }) =>
    `${option} must be whole minutes from 0 (off) to 360, for example ${example}.`,
  optionLang: ({ option, ro, en, example }: { option: string; ro: string; en: string; example: string }) =>
    `${option} is not a language fleetbot speaks: use ${ro} (Romanian) or ${en} (English), for example ${example}.`,
  /** A vehicle option that cannot be read: `rule` is one of the option rules below. */
  optionWatch: ({ option, rule, example }: { option: string; rule: string; example: string }) =>
    `${option} must be ${rule}, for example ${example}.`,
  ruleVolts: () => "volts from 0 to 60 (a decimal comma is fine)",
  ruleIdle: () => "whole minutes from 1 to 1,440",
  ruleSpeed: () => "whole km/h from 10 to 250",
  ruleOffline: () => "whole minutes from 5 to 10,080 (a week)",
  ruleHours: () => "two different times of day, HH:MM-HH:MM (past midnight is fine: 22:00-06:00)",
  ruleTemp: () => "a range in °C, <min>..<max>, each from −50 to 50, the first below the second",
  ruleTempFor: () => "whole minutes from 0 to 1,440",
  ruleZones: () => "zone names separated by commas (a name with spaces in quotes)",
  optionExample: () => "Example: /fleet alerts subscribe Error OldData min=15 exclude=NotInRomania",
  // ---------- the answer to a click on an alert, in the clicker's language ----------
  /** `uit`: escaped; `when`: slackDate. */
  mutedAnswer: ({ uit, channel, when }: { uit: string; channel: string; when: string }) =>
    `🔕 Alerts of UIT \`${uit}\` are muted in ${channel} until ${when}.`,
  mutedAnswerText: ({ uit }: { uit: string }) => `Alerts of UIT ${uit} muted for 24 h.`,
  unmutedAnswer: ({ uit, channel }: { uit: string; channel: string }) =>
    `🔔 Alerts of UIT \`${uit}\` are no longer muted in ${channel}: a problem still there is posted at the next check.`,
  unmutedAnswerText: ({ uit }: { uit: string }) => `Alerts of UIT ${uit} no longer muted.`,
} satisfies Section;
