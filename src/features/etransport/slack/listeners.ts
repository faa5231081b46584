import { createHash } from "node:crypto";
import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { z } from "zod";
import { examplesFor, helpText } from "../../../commands/help.js";
import { parseEtransportCommand } from "../../../commands/index.js";
import type { EtransportCommand } from "../../../commands/types.js";
import { grammarErrorMessage } from "../../../commands/views/grammarError.js";
import { helpMessage } from "../../../commands/views/help.js";
import { messages } from "../../../i18n/catalogue.js";
import type { Language } from "../../../i18n/language.js";
import type { FleetAccess } from "../../../platform/accounts/fleetAccounts.js";
import { assertNever } from "../../../platform/assertNever.js";
import { INPUTS, VIEWS } from "../../../platform/slack/actionIds.js";
import { isChannelMember } from "../../../platform/slack/listeners/channelMembership.js";
import { replyFromAction, replyFromCommand } from "../../../platform/slack/listeners/replyTargets.js";
import { type Ack, aside, ephemeral, notYoursAnswer } from "../../../platform/slack/listeners/responses.js";
import { noticeMessage } from "../../../platform/slack/views/notice.js";
import { progressPhrase } from "../../../platform/slack/views/progress.js";
import { statusModal } from "../../../platform/slack/views/statusModal.js";
import { ECHO_MAX, userText } from "../../../platform/slack/views/text.js";
import type { ReplyTarget } from "../../../platform/tasks/task.js";
import { queuedMessage, queuePosition, submitAndAcknowledge } from "../../acknowledge.js";
import type { EtransportDeps } from "../../context.js";
import { describeTask } from "../../renderers.js";
import type { NewTaskOf, TaskKind } from "../../taskKinds.js";
import type { TransportDraft, TransportFormInput } from "../form.js";
import type { TransportAction } from "../kinds/transportAction.js";
import { storedTransportList } from "./rendering/transportList.js";
import {
  auditHistoryMessage,
  auditUnreadableMessage,
  fleetAccessMessage,
  HISTORY_MAX_ENTRIES,
} from "./views/auditHistory.js";
import { parseTransportButtonValue, parseTransportListNavValue } from "./views/buttonValues.js";
import { TRANSPORT_LIST_PAGE_SIZE } from "./views/cardOptions.js";
import { transportModal } from "./views/formModal.js";
import {
  checkTransportModal,
  type TransportModalCheck,
  transportFormValues,
} from "./views/formSubmission.js";
import { transportFormWarningTexts } from "./views/formWording.js";
import { removeCancelledMessage } from "./views/removal.js";
import { actionUnderWayNote, lookupUnderWayNote, withCardUnderWay } from "./views/underWay.js";
import { vehicleOptions } from "./views/vehicleOptions.js";

type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;
type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;
type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
type OptionsArgs = SlackOptionsMiddlewareArgs<"block_suggestion"> & AllMiddlewareArgs;

const words = (language: Language) => messages(language).etransport;

const noAccount = (language: Language) =>
  noticeMessage(words(language).noAccount(), words(language).noAccountHint());

/** Said to the clicking user alone when a button cannot run: no account, or a value we cannot read. */
const cannotAct = (hasAccount: boolean, language: Language) =>
  aside(hasAccount ? noticeMessage(words(language).buttonOutOfDate()) : noAccount(language));

/** A short fingerprint of what a form says, for telling a double submit from a different one. */
const contentKey = (value: unknown) =>
  createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);

/** Buttons of alert messages live in blocks whose ids start with "alert." (src/features/alerts/slack/views/). */
const fromAlert = (button: ButtonAction) => button.block_id.startsWith("alert.");

const editMetadata = z.object({
  transportUId: z.string().optional(),
  uit: z.string().optional(),
  channel: z.string().optional(),
  /** The instants the service held when the edit form opened (SavedTimes). */
  saved: z
    .object({
      validityStartMs: z.number().optional(),
      validityEndMs: z.number().optional(),
      startMs: z.number().optional(),
      endMs: z.number().optional(),
    })
    .optional(),
});

/** Who acts, as whom, and where the answer goes: what every /etransport step needs. */
interface Scope {
  ack: Ack;
  client: WebClient;
  user: string;
  account: string;
  zone: string;
  /** The user's language, resolved once at the entry. */
  language: Language;
  reply: ReplyTarget;
  trigger: string;
  channel?: string;
}

/**
 * `/etransport`: list, create, edit, start/pause/end (also in bulk), remove after
 * confirmation. Every step runs as the user who typed it, with their own fleet account.
 */
export async function etransportCommand(
  { command, ack, client }: CommandArgs,
  deps: EtransportDeps,
): Promise<void> {
  // No Web API call before the ack: the zone known now; the task settles it (tasks/handlers/userZone.ts).
  const zone = deps.users.zoneAtAck(command.user_id);
  const parsed = parseEtransportCommand(command.text, { timeZone: zone, now: new Date(deps.now()) });
  const language = await deps.users.languageOf(command.user_id);
  if (!parsed.ok || parsed.kind === "help") {
    const help = helpText("etransport", await examplesFor(deps, command.user_id), language);
    await ack(
      ephemeral(
        parsed.ok
          ? helpMessage(help, undefined, messages(language).help.title())
          : grammarErrorMessage(parsed, help, language),
      ),
    );
    return;
  }
  const account = await deps.users.accountOf(command.user_id);
  if (!account) {
    await ack(ephemeral(noAccount(language)));
    return;
  }
  const scope: Scope = {
    ack,
    client,
    user: command.user_id,
    account: account.username,
    zone,
    language,
    reply: replyFromCommand(command, deps.now(), language),
    trigger: command.trigger_id,
    channel: command.channel_id,
  };
  await runEtransportCommand(parsed, scope, deps);
}

async function runEtransportCommand(
  parsed: Exclude<EtransportCommand, { kind: "help" }>,
  s: Scope,
  deps: EtransportDeps,
): Promise<void> {
  switch (parsed.kind) {
    case "list":
      await submit(s, deps, {
        kind: "transport-list",
        params: {
          statusIds: parsed.statusIds,
          search: parsed.search,
          pageIndex: 0,
          pageSize: TRANSPORT_LIST_PAGE_SIZE,
          filterLabel: parsed.filters.join(" "),
          filter: parsed.filters.join(" "),
          timeZone: s.zone,
        },
      });
      return;
    case "start":
    case "pause":
    case "end": {
      const uits = [...new Set(parsed.uits)].sort();
      await submit(s, deps, {
        kind: "transport-action",
        params: { action: parsed.kind, uits, refresh: uits.length === 1, timeZone: s.zone },
        // The same action on the same transports while one is pending runs once (double clicks).
        dedupeKey: `${s.account}:${parsed.kind}:${uits.join(",")}`,
      });
      return;
    }
    case "remove":
      await submit(s, deps, {
        kind: "transport-find",
        params: { uit: parsed.uit, purpose: "remove", timeZone: s.zone },
      });
      return;
    case "edit":
      await openEditModal(s, parsed.uit, deps);
      return;
    case "history":
      await answerHistory(s, parsed.uit, deps);
      return;
    case "new":
      await s.ack();
      deps.vehicles.warm(s.account, s.user);
      await s.client.views.open({
        trigger_id: s.trigger,
        view: transportModal({
          mode: "create",
          vehicles: await vehiclesOf(deps, s.account, s.user),
          userTimeZone: s.zone,
          language: s.language,
          nowMs: deps.now(),
          privateMetadata: { channel: s.channel },
        }),
      });
      return;
    case "modal":
      await s.ack(
        ephemeral(
          noticeMessage(
            words(s.language).nameTheTransport({ form: parsed.form, example: "Y45R-577U-N544-GY4S" }),
            words(s.language).nameTheTransportHint(),
          ),
        ),
      );
      return;
    default:
      assertNever(parsed, "e-Transport command");
  }
}

/**
 * The transport's audit trail, in the ack, from the store (no fleet call): only the entries of
 * the user's own fleet account, as changes made as another account are not theirs to see.
 */
async function answerHistory(s: Scope, uit: string, deps: EtransportDeps): Promise<void> {
  // Fleet data from the store goes only to a link the service accepted lately: a workspace cut off
  // by a password change reads no more of it than it could ask the service.
  let access: FleetAccess;
  try {
    access = await deps.fleetAccess(s.account, s.user);
  } catch {
    await s.ack(ephemeral(auditUnreadableMessage(s.language)));
    return;
  }
  if (access !== "proven") {
    await s.ack(ephemeral(fleetAccessMessage(access, s.language)));
    return;
  }
  let history: Awaited<ReturnType<EtransportDeps["auditHistory"]>>;
  try {
    history = await deps.auditHistory(s.account, uit, HISTORY_MAX_ENTRIES);
  } catch {
    await s.ack(ephemeral(auditUnreadableMessage(s.language)));
    return;
  }
  await s.ack(
    ephemeral(
      auditHistoryMessage({ uit, account: s.account, history, timeZone: s.zone, language: s.language }),
    ),
  );
}

/** Opens a "looking up" modal at once (the trigger lasts 3 s), filled in when the transport arrives. */
async function openEditModal(s: Scope, uit: string, deps: EtransportDeps): Promise<void> {
  await s.ack();
  const opened = await s.client.views.open({
    trigger_id: s.trigger,
    view: statusModal(
      words(s.language).editTitle(),
      words(s.language).lookingUpForEdit({ uit: userText(uit, ECHO_MAX) }),
      VIEWS.transportEdit,
      s.language,
    ),
  });
  await deps.tasks.submit({
    kind: "transport-find",
    params: { uit, purpose: "edit", timeZone: s.zone },
    account: s.account,
    slackUser: s.user,
    reply: { viewId: opened.view?.id, channel: s.channel, language: s.language },
    priority: "interactive",
  });
}

async function submit<K extends TaskKind>(
  s: Scope,
  deps: EtransportDeps,
  task: Pick<NewTaskOf<K>, "kind" | "params" | "dedupeKey">,
): Promise<void> {
  await submitAndAcknowledge(
    deps,
    { ...task, account: s.account, slackUser: s.user, reply: s.reply, priority: "interactive" },
    (queued) => s.ack(ephemeral(queuedMessage(deps, queued, s.language))),
  );
}

async function vehiclesOf(deps: EtransportDeps, account: string, slackUser: string) {
  return (await deps.vehicles.peek(account, slackUser))?.map((v) => ({
    vehicleUId: v.vehicleUId ?? "",
    plate: v.vehicleRegistrationNumber ?? "",
    name: v.vehicleName ?? "",
  }));
}

// ---------- buttons on transport cards ----------

/** A card's Start, Pause or End button; runs as the clicking user's account, never the poster's. */
export function transportActionButton(action: TransportAction) {
  return async (
    { ack, action: button, body, respond, client }: ButtonArgs,
    deps: EtransportDeps,
  ): Promise<void> => {
    await ack();
    // The answer is the clicker's, in their own language, whoever posted the card (an alert's
    // language is the channel's; a shared card's, its poster's).
    const language = await deps.users.languageOf(body.user.id);
    const value = parseTransportButtonValue(button.value);
    const account = await deps.users.accountOf(body.user.id);
    if (!value || !account) {
      await respond(cannotAct(account !== undefined, language));
      return;
    }
    // The card's list is shown again after the action: only a list of the clicking user's account.
    const listTask = value.l !== undefined ? await deps.tasks.owned(value.l, body.user.id) : undefined;
    if (listTask?.reason === "foreign") {
      await respond(notYoursAnswer(language));
      return;
    }
    const zone = await deps.users.timeZoneOf(client, body.user.id);
    // On a channel's alert the answer goes to the clicking user; the poller updates the alert.
    // In a list, the list stays: the card shows "⏳ Starting…" until the list comes back updated.
    const alert = fromAlert(button);
    const list = alert ? undefined : storedTransportList(listTask?.task, language);
    await submitAndAcknowledge(
      deps,
      {
        kind: "transport-action",
        params: { action, uits: [value.u], refresh: true, listTaskId: value.l, timeZone: zone },
        account: account.username,
        slackUser: body.user.id,
        reply: {
          ...replyFromAction(body, deps.now(), language),
          ...(alert ? { keepOriginal: true } : {}),
          ...(list ? { listStays: true, underWay: { blockId: button.block_id, action } } : {}),
          // Slack sends the clicked message only when it is not ephemeral: a card the channel sees.
          ...(!alert && !list && body.message !== undefined ? { sharedCard: true } : {}),
        },
        priority: "interactive",
        // A double click runs once: the first one is running.
        dedupeKey: `${account.username}:${action}:${value.u}`,
      },
      // Held until this is out: the answer must not be overwritten by the "⏳" note. The card
      // (or, on an alert, a note to the clicker) says where the action stands, as a command's ack does.
      async (queued) => {
        if (!queued.created) return;
        const wait = queued.progress ? progressPhrase(queued.progress, deps.now(), language) : undefined;
        // A list is the clicker's own: its card shows the wait. An alert or a card the channel
        // sees stays as everyone sees it until the result; the clicker gets a note instead.
        if (list) {
          await respond({
            replace_original: true,
            ...withCardUnderWay(list, button.block_id, action, wait, language),
          });
        } else if (wait) {
          await respond({
            replace_original: false,
            response_type: "ephemeral",
            ...actionUnderWayNote(action, value.u, wait, language),
          });
        }
      },
    );
  };
}

/** A card's Remove button, after Slack's confirm dialog: this click is the confirmation. */
/** Cancel beside Remove's confirm: nothing reaches the fleet service; the question says the transport stays. */
export async function transportRemoveCancel(
  { ack, action, body, respond }: ButtonArgs,
  deps: EtransportDeps,
): Promise<void> {
  await ack();
  const language = await deps.users.languageOf(body.user.id);
  const value = parseTransportButtonValue(action.value);
  await respond({
    replace_original: true,
    ...(value
      ? removeCancelledMessage(value.u, language)
      : { text: words(language).notRemoved(), blocks: [] }),
  });
}

export async function transportRemove(
  { ack, action, body, respond }: ButtonArgs,
  deps: EtransportDeps,
): Promise<void> {
  await ack();
  const language = await deps.users.languageOf(body.user.id);
  const value = parseTransportButtonValue(action.value);
  const account = await deps.users.accountOf(body.user.id);
  if (!value || !account) {
    await respond(cannotAct(account !== undefined, language));
    return;
  }
  await deps.tasks.submit({
    kind: "transport-remove",
    params: { uit: value.u, transportUId: value.id },
    account: account.username,
    slackUser: body.user.id,
    reply: replyFromAction(body, deps.now(), language),
    priority: "interactive",
    dedupeKey: `${account.username}:remove:${value.id}`,
  });
}

/** A transport button's value, the clicking user's account and zone (after the ack); undefined when unusable. */
async function clickedTransport(
  buttonValue: string | undefined,
  userId: string,
  client: ButtonArgs["client"],
  deps: EtransportDeps,
) {
  const value = parseTransportButtonValue(buttonValue);
  const account = await deps.users.accountOf(userId);
  if (!value || !account) return undefined;
  return {
    value,
    account,
    zone: await deps.users.timeZoneOf(client, userId),
    language: await deps.users.languageOf(userId),
  };
}

/** A card's Edit button: the edit form, once the transport is looked up. */
export async function transportEdit(
  { ack, action, body, client }: ButtonArgs,
  deps: EtransportDeps,
): Promise<void> {
  await ack();
  const clicked = await clickedTransport(action.value, body.user.id, client, deps);
  if (!clicked) return;
  const { value, account, zone, language } = clicked;
  const scope: Scope = {
    ack: async () => {},
    client,
    user: body.user.id,
    account: account.username,
    zone,
    language,
    reply: { language },
    trigger: body.trigger_id,
    channel: body.channel?.id,
  };
  await openEditModal(scope, value.u, deps);
}

/** An alert's Show button: the transport's card. */
export async function transportShow(
  { ack, action, body, client, respond }: ButtonArgs,
  deps: EtransportDeps,
): Promise<void> {
  await ack();
  const clicked = await clickedTransport(action.value, body.user.id, client, deps);
  if (!clicked) return;
  const { value, account, zone, language } = clicked;
  // The alert is the channel's: the card goes to the clicking user beside it, and replaces nothing.
  // The clicker is told at once that the lookup is under way, and how long it should take.
  await submitAndAcknowledge(
    deps,
    {
      kind: "transport-find",
      params: { uit: value.u, purpose: "show", timeZone: zone },
      account: account.username,
      slackUser: body.user.id,
      reply: { ...replyFromAction(body, deps.now(), language), keepOriginal: true },
      priority: "interactive",
    },
    async (queued) => {
      const wait = queued.progress
        ? progressPhrase(queued.progress, deps.now(), language)
        : words(language).lookupUnderWay();
      await respond({
        replace_original: false,
        response_type: "ephemeral",
        ...lookupUnderWayNote(value.u, wait, language),
      });
    },
  );
}

/** A transport list's Next / Previous: the same filter and search, another page. */
export async function turnTransportListPage(
  { ack, action, body, client }: ButtonArgs,
  deps: EtransportDeps,
): Promise<void> {
  await ack();
  const nav = parseTransportListNavValue(action.value);
  const account = await deps.users.accountOf(body.user.id);
  if (!nav || !account) return;
  const zone = await deps.users.timeZoneOf(client, body.user.id);
  const language = await deps.users.languageOf(body.user.id);
  const parsed = parseEtransportCommand(`list ${nav.f === "default" ? "" : nav.f} ${nav.s ?? ""}`, {
    timeZone: zone,
    now: new Date(deps.now()),
  });
  if (!parsed.ok || parsed.kind !== "list") return;
  await deps.tasks.submit({
    kind: "transport-list",
    params: {
      statusIds: parsed.statusIds,
      search: nav.s,
      pageIndex: nav.p,
      pageSize: TRANSPORT_LIST_PAGE_SIZE,
      filterLabel: nav.f,
      filter: nav.f,
      timeZone: zone,
    },
    account: account.username,
    slackUser: body.user.id,
    reply: replyFromAction(body, deps.now(), language),
    priority: "interactive",
  });
}

// ---------- the create / edit modal ----------

function readMetadata(view: ViewSubmitAction["view"]) {
  try {
    return editMetadata.parse(JSON.parse(view.private_metadata || "{}"));
  } catch {
    return {};
  }
}

/** A submitted transport form, read: who submitted it, its metadata and the domain's check of it. */
interface SubmittedForm {
  account: { username: string } | undefined;
  language: Language;
  metadata: ReturnType<typeof readMetadata>;
  /** The zone the warnings are worded in (the task settles it before the card is rendered). */
  zone: string;
  nowMs: number;
  checked: TransportModalCheck;
}

/** The create or edit form submitted: checked, warnings confirmed by a second submit, then saved by a task. */
export function transportSubmitted(mode: "create" | "edit") {
  return async (args: ViewArgs, deps: EtransportDeps): Promise<void> => {
    const form = await readSubmittedForm(mode, args, deps);
    const outcome = await formOutcome(form, args, deps);
    if ("errors" in outcome) {
      await args.ack({ response_action: "errors", errors: outcome.errors });
      return;
    }
    deps.formWarnings.delete(args.view.id);
    await saveTransport(mode, form, outcome, args, deps);
  };
}

async function readSubmittedForm(
  mode: "create" | "edit",
  { view, body }: ViewArgs,
  deps: EtransportDeps,
): Promise<SubmittedForm> {
  const account = await deps.users.accountOf(body.user.id);
  const language = await deps.users.languageOf(body.user.id);
  const metadata = readMetadata(view);
  const input: TransportFormInput = transportFormValues(
    view.state.values as Parameters<typeof transportFormValues>[0],
  );
  // Only the warnings' wording uses the zone here; the task settles it before the card is rendered.
  const zone = deps.users.zoneAtAck(body.user.id);
  const vehicle = account
    ? (await deps.vehicles.peek(account.username, body.user.id))?.find(
        (v) => v.vehicleUId === input.vehicleUId,
      )
    : undefined;
  // The one call to the domain's validation (its errors are keyed for the modal's blocks).
  const nowMs = deps.now();
  const checked = checkTransportModal(
    input,
    {
      mode,
      nowMs,
      vehiclePlate: vehicle?.vehicleRegistrationNumber,
      ...(mode === "edit" && metadata.saved ? { saved: metadata.saved } : {}),
    },
    { language, timeZone: zone, nowMs },
  );
  return { account, language, metadata, zone, nowMs, checked };
}

/**
 * What the form's submission comes to: the errors to show on the form (no link, a channel the
 * user is not in, the form's own errors, warnings not yet confirmed), or the draft to save.
 */
async function formOutcome(
  form: SubmittedForm,
  { view, body, client }: ViewArgs,
  deps: EtransportDeps,
): Promise<{ errors: Record<string, string> } | { account: { username: string }; value: TransportDraft }> {
  const { account, language, metadata, checked } = form;
  if (!account) return { errors: { [INPUTS.transportVehicle.block]: words(language).linkFirst() } };
  // The card is posted where the form's metadata says: only in a channel the user is in.
  if (metadata.channel && !(await isChannelMember(client, metadata.channel, body.user.id)))
    return { errors: { [INPUTS.transportVehicle.block]: words(language).notYourChannel() } };
  if (!checked.ok) return { errors: checked.errors };
  // Warnings (validity longer than the legal spans…) do not block: shown once, the same submission again confirms.
  // The key is the warnings as data: the same form submitted again confirms them, whatever the language.
  const warningKey = checked.warnings.length > 0 ? JSON.stringify(checked.warnings) : "";
  if (warningKey && deps.formWarnings.get(view.id) !== warningKey) {
    deps.formWarnings.set(view.id, warningKey);
    const warnings = transportFormWarningTexts(checked.warnings, language, form.zone, form.nowMs).join(" ");
    return {
      errors: {
        [INPUTS.transportValidityEnd.block]: words(language).submitAgain({ warnings }).slice(0, 1900),
      },
    };
  }
  return { account, value: checked.value };
}

/** The checked form saved by a task; the form says where the card will go while it waits. */
async function saveTransport(
  mode: "create" | "edit",
  form: SubmittedForm,
  checked: { account: { username: string }; value: TransportDraft },
  { ack, view, body }: ViewArgs,
  deps: EtransportDeps,
): Promise<void> {
  const { language, metadata, zone } = form;
  const account = checked.account;
  const draft = { ...checked.value, ...(mode === "edit" && metadata.uit ? { codeUit: metadata.uit } : {}) };
  const m = words(language);
  const title = mode === "create" ? m.newTitle() : m.editTitle();
  await submitAndAcknowledge(
    deps,
    {
      kind: "transport-save",
      params: { draft, transportUId: mode === "edit" ? metadata.transportUId : undefined, timeZone: zone },
      account: account.username,
      slackUser: body.user.id,
      reply: { viewId: view.id, channel: metadata.channel, inChannel: true, language },
      priority: "interactive",
      // The same form submitted twice runs once; a different one (a corrected edit) runs too.
      dedupeKey: `${account.username}:save:${draft.codeUit ?? metadata.transportUId}:${contentKey(draft)}`,
    },
    (queued) =>
      ack({
        response_action: "update",
        view: statusModal(
          title,
          queued.created
            ? m.saveQueued({
                what: describeTask(queued.task, language),
                place: queuePosition(queued, language),
                destination: cardDestination(mode, metadata.channel, language),
              })
            : m.saveAlreadyQueued({ what: describeTask(queued.task, language) }),
          mode === "create" ? VIEWS.transportCreate : VIEWS.transportEdit,
          language,
        ),
      }),
  );
}

/** Where the saved transport's card goes, as the form says while the save waits. */
function cardDestination(mode: "create" | "edit", channel: string | undefined, language: Language): string {
  const m = words(language);
  return mode === "create"
    ? m.cardPosted({ channel: channel ?? "" })
    : m.updatedCardPosted({ channel: channel ?? "" });
}

/** The transport form's vehicle select: from the cached list (a fetch starts when there is none). */
export async function transportVehicleOptions(
  { ack, body, options }: OptionsArgs,
  deps: EtransportDeps,
): Promise<void> {
  const account = await deps.users.accountOf(body.user.id);
  const vehicles = account ? await vehiclesOf(deps, account.username, body.user.id) : undefined;
  if (account && !vehicles) deps.vehicles.warm(account.username, body.user.id);
  // Only an option without plate nor name has words ("(unnamed vehicle)"): the language is read only then.
  const list = vehicles ?? [];
  const needsWords = list.some((v) => !v.plate.trim() && !v.name.trim());
  const language = needsWords ? await deps.users.languageOf(body.user.id) : "en";
  await ack(vehicleOptions(options.value ?? "", list, language));
}
