import { TZDate } from "@date-fns/tz";
import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from "@slack/bolt";
import type { PlainTextOption } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import { startOfDay } from "date-fns";
import { z } from "zod";
import { vehicleExamples } from "../../../commands/help.js";
import { pickedPeriodLabel } from "../../../commands/pickedPeriod.js";
import type { GrammarError, ReportCommand, ReportName, ReportPrefill } from "../../../commands/types.js";
import { grammarErrorMessage } from "../../../commands/views/grammarError.js";
import { messages } from "../../../i18n/catalogue.js";
import type { Language } from "../../../i18n/language.js";
import type { Vehicle } from "../../../platform/fleet/schemas.js";
import { INPUTS, VIEWS } from "../../../platform/slack/actionIds.js";
import { parseJson } from "../../../platform/slack/listeners/payloads.js";
import { replyFromAction } from "../../../platform/slack/listeners/replyTargets.js";
import {
  type Ack,
  aside,
  ephemeral,
  noAccountMessage,
  notYoursAnswer,
} from "../../../platform/slack/listeners/responses.js";
import { statusModal } from "../../../platform/slack/views/statusModal.js";
import { normalisePlate, replacementFor, resolveVehicles } from "../../../platform/vehicles/vehicleRefs.js";
import { queuedMessage, queuePosition, submitAndAcknowledge } from "../../acknowledge.js";
import type { ReportDeps } from "../../context.js";
import { fleetAccessMessage } from "../../etransport/index.js";
import { describeTask, renderTask, resultNotKeptText } from "../../renderers.js";
import type { TaskInput } from "../../taskKinds.js";
import { DEFAULT_MIN_MINUTES, REPORT_CATALOGUE, resolvableVehicles } from "../catalogue.js";
import { reportModal } from "./views/reportModal.js";
import { modalReportChoices } from "./views/reportViews.js";

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;
type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
type OptionsArgs = SlackOptionsMiddlewareArgs<"block_suggestion"> & AllMiddlewareArgs;
type VehicleReportInput = TaskInput<"vehicle-report">;

/** What a /fleet report command has: who typed it, where, and where to answer. */
export interface ReportCommandArgs {
  ack: Ack;
  client: WebClient;
  userId: string;
  channelId: string;
  triggerId: string;
  reply: ReturnType<typeof replyFromAction>;
  zone: string;
  /** The user's language, resolved once at the command's entry; the reply carries it too. */
  language: Language;
}

const modalMetadata = z.object({ channel: z.string().optional() });
const pageValue = z.object({ t: z.string(), p: z.number().int().min(0) });

/**
 * A typed command's vehicles that the account's cached list does not know, as the answer to give at
 * once (with the closest plates); undefined when they all resolve or nothing is named. Pure.
 */
export function unresolvedVehicles(
  parsed: ReportCommand,
  cached: readonly Vehicle[],
): GrammarError | undefined {
  if (parsed.vehicles.length === 0) return undefined;
  const resolved = resolveVehicles(parsed.vehicles, resolvableVehicles(cached));
  if (resolved.ok) return undefined;
  const replaced = resolved.resolutions.map(replacementFor);
  const vehicles = replaced.filter((text): text is string => text !== undefined);
  const period = parsed.period && parsed.period.text !== "" ? ` ${parsed.period.text}` : "";
  const min =
    parsed.minMinutes !== undefined && parsed.minMinutes !== DEFAULT_MIN_MINUTES
      ? ` min=${parsed.minMinutes}`
      : "";
  // The same command with the closest plates, when every vehicle has one; else the list of vehicles.
  const example =
    vehicles.length === replaced.length
      ? `/fleet ${parsed.report} ${vehicles.join(", ")}${period}${min}`
      : "/fleet vehicles";
  return {
    ok: false,
    kind: "error",
    problem: { code: "vehiclesNotFound", problems: resolved.problems },
    example,
  };
}

/**
 * A typed report command: its task, acknowledged with the place in the queue. When the account's
 * vehicle list is cached, a vehicle it does not know is answered at once instead of queued; when
 * it is not, the task resolves the vehicles once it has the list.
 */
export async function runReport(
  args: ReportCommandArgs,
  parsed: ReportCommand,
  deps: ReportDeps,
): Promise<void> {
  const account = await deps.users.accountOf(args.userId);
  if (!account) {
    await args.ack(ephemeral(noAccountMessage(args.language)));
    return;
  }
  const cached = await deps.vehicles.peek(account.username, args.userId);
  const unknown = cached ? unresolvedVehicles(parsed, cached) : undefined;
  if (unknown) {
    await args.ack(ephemeral(grammarErrorMessage(unknown, undefined, args.language)));
    return;
  }
  await submitReport(args, deps, account.username, reportTaskParams(parsed, args.zone));
}

/** A parsed report command as its task's parameters (a typed command and a scheduled run alike). Pure. */
export function reportTaskParams(parsed: ReportCommand, timeZone: string): VehicleReportInput {
  const period = parsed.period;
  return {
    report: parsed.report,
    refs: parsed.vehicles,
    ...(parsed.filter !== undefined ? { filter: parsed.filter } : {}),
    ...(period
      ? {
          period: {
            fromMs: period.from.getTime(),
            toMs: period.to.getTime(),
            label: period.label,
            // Kept so the task can read it again if the user's zone turns out to be another.
            text: period.text,
          },
        }
      : {}),
    ...(parsed.minMinutes !== undefined ? { minMinutes: parsed.minMinutes } : {}),
    timeZone,
  };
}

async function submitReport(
  args: ReportCommandArgs,
  deps: ReportDeps,
  account: string,
  params: VehicleReportInput,
): Promise<void> {
  await submitAndAcknowledge(
    deps,
    {
      kind: "vehicle-report",
      params,
      account,
      slackUser: args.userId,
      reply: { ...args.reply, language: args.language },
      priority: REPORT_CATALOGUE[params.report].priority,
    },
    (queued) => args.ack(ephemeral(queuedMessage(deps, queued))),
  );
}

/** `/fleet`, `/fleet report [name]` or a report without vehicles: the report form, prefilled. */
export async function openReportModal(
  args: ReportCommandArgs,
  modal: { report: ReportName | "report"; prefill?: ReportPrefill },
  deps: ReportDeps,
): Promise<void> {
  const account = await deps.users.accountOf(args.userId);
  if (!account) {
    await args.ack(ephemeral(noAccountMessage(args.language)));
    return;
  }
  await args.ack();
  deps.vehicles.warm(account.username, args.userId);
  const cached = await deps.vehicles.peek(account.username, args.userId);
  const period = modal.prefill?.period;
  await args.client.views.open({
    trigger_id: args.triggerId,
    view: reportModal(
      JSON.stringify({ channel: args.channelId }),
      {
        report: modal.report === "report" ? undefined : modal.report,
        fromDateTime: period ? Math.floor(period.from.getTime() / 1000) : undefined,
        toDateTime: period ? Math.floor(period.to.getTime() / 1000) : undefined,
        minMinutes: modal.prefill?.minMinutes,
      },
      { examplePlate: cached ? vehicleExamples(cached)?.plates[0] : undefined },
      args.language,
    ),
  });
}

/** The report form's fields, read and checked: errors by block id, or the task's parameters. */
function readReportForm(
  view: ViewSubmitAction["view"],
  zone: string,
  nowMs: number,
  language: Language,
): { errors: Record<string, string> } | { params: VehicleReportInput } {
  const m = messages(language).reports;
  const values = view.state.values;
  const kind = values[INPUTS.reportKind.block]?.[INPUTS.reportKind.action]?.selected_option?.value;
  const vehicles =
    values[INPUTS.reportVehicles.block]?.[INPUTS.reportVehicles.action]?.selected_options ?? [];
  const fromSec =
    values[INPUTS.reportFrom.block]?.[INPUTS.reportFrom.action]?.selected_date_time ?? undefined;
  const toSec = values[INPUTS.reportTo.block]?.[INPUTS.reportTo.action]?.selected_date_time ?? undefined;
  const minText = values[INPUTS.reportMinMinutes.block]?.[INPUTS.reportMinMinutes.action]?.value ?? undefined;
  const errors: Record<string, string> = {};
  const choice = modalReportChoices(language).find((c) => c.value === kind);
  if (!choice) errors[INPUTS.reportKind.block] = m.chooseReport();
  if (vehicles.length === 0) errors[INPUTS.reportVehicles.block] = m.chooseVehicle();
  else if (vehicles.some((v) => v.value === VEHICLES_LOADING_VALUE))
    errors[INPUTS.reportVehicles.block] = m.loadingIsNoVehicle();
  const fromMs = fromSec ? fromSec * 1000 : startOfDay(new TZDate(nowMs, zone)).getTime();
  const toMs = toSec ? Math.min(toSec * 1000, nowMs) : nowMs;
  if (fromMs >= toMs) errors[INPUTS.reportTo.block] = m.endAfterStart();
  const minMinutes = minText ? Number(minText) : undefined;
  if (minMinutes !== undefined && (!Number.isInteger(minMinutes) || minMinutes < 1)) {
    errors[INPUTS.reportMinMinutes.block] = m.minWhole();
  }
  if (Object.keys(errors).length > 0 || !choice) return { errors };
  const report = REPORT_CATALOGUE[choice.value];
  const chosen = report.vehicles === "one" ? vehicles.slice(0, 1) : vehicles;
  return {
    params: {
      report: choice.value,
      refs: chosen.map((o) => ({
        type: "id",
        raw: o.text.text,
        normalised: o.value,
        vehicleId: Number(o.value),
      })),
      period:
        report.period === "none"
          ? undefined
          : {
              fromMs,
              toMs,
              label: pickedPeriodLabel(fromMs, toMs, zone, nowMs),
              // Nothing picked is "today", read again in the user's zone once the task settles it.
              ...(fromSec === undefined && toSec === undefined ? { text: "" } : {}),
            },
      minMinutes: report.minStop ? (minMinutes ?? DEFAULT_MIN_MINUTES) : undefined,
      timeZone: zone,
    },
  };
}

/** The report form submitted: the task, and the form says it is queued. */
export async function reportSubmitted({ ack, view, body }: ViewArgs, deps: ReportDeps): Promise<void> {
  const account = await deps.users.accountOf(body.user.id);
  const language = await deps.users.languageOf(body.user.id);
  // No Web API call before the ack: the zone known now; the task settles it (tasks/handlers/userZone.ts).
  const zone = deps.users.zoneAtAck(body.user.id);
  const form = readReportForm(view, zone, deps.now(), language);
  if ("errors" in form || !account) {
    const errors = {
      ...(account ? {} : { [INPUTS.reportKind.block]: messages(language).reports.linkFirst() }),
      ...("errors" in form ? form.errors : {}),
    };
    await ack({ response_action: "errors", errors });
    return;
  }
  const metadata = parseJson(modalMetadata, view.private_metadata);
  await submitAndAcknowledge(
    deps,
    {
      kind: "vehicle-report",
      params: form.params,
      account: account.username,
      slackUser: body.user.id,
      reply: { viewId: view.id, channel: metadata?.channel, language },
      priority: REPORT_CATALOGUE[form.params.report].priority,
    },
    (queued) =>
      ack({
        response_action: "update",
        view: statusModal(
          messages(language).reports.modalTitle(),
          messages(language).reports.modalQueued({
            what: describeTask(queued.task, language),
            position: queuePosition(queued, language),
          }),
          VIEWS.report,
          language,
        ),
      }),
  );
}

/**
 * How long a picker waits for a vehicle list being fetched: Slack drops an options answer after 3 s,
 * and the request itself took some of them.
 */
export const OPTIONS_WAIT_MS = 2_000;

/** The value of the hint shown while the list loads: the form refuses it kindly if it is submitted. */
export const VEHICLES_LOADING_VALUE = "vehicles-loading";

const vehiclesLoadingOption = (language: Language): PlainTextOption => ({
  text: { type: "plain_text", text: messages(language).reports.vehiclesLoading() },
  value: VEHICLES_LOADING_VALUE,
});

/**
 * Vehicle selects in modals, answered within Slack's 3 s: from the cached list, else from the
 * fetch under way if it ends within OPTIONS_WAIT_MS, else a "loading" hint (never an empty
 * list, which reads as "this account has no vehicles").
 */
export async function reportVehicleOptions(
  { ack, body, options }: OptionsArgs,
  deps: ReportDeps,
): Promise<void> {
  const account = await deps.users.accountOf(body.user.id);
  const cached = account
    ? await deps.vehicles.within(account.username, body.user.id, OPTIONS_WAIT_MS)
    : undefined;
  if (account && !cached) {
    await ack({ options: [vehiclesLoadingOption(await deps.users.languageOf(body.user.id))] });
    return;
  }
  const query = normalisePlate(options.value ?? "");
  const text = (options.value ?? "").toLowerCase();
  const matches = (cached ?? []).filter(
    (v) =>
      !query ||
      normalisePlate(v.vehicleRegistrationNumber ?? "").includes(query) ||
      (v.vehicleName ?? "").toLowerCase().includes(text),
  );
  const opts: PlainTextOption[] = matches.slice(0, 100).map((v) => ({
    text: {
      type: "plain_text",
      text: `${v.vehicleRegistrationNumber ?? `#${v.vehicleId}`} ${v.vehicleName ?? ""}`.trim().slice(0, 75),
    },
    value: String(v.vehicleId),
  }));
  await ack({ options: opts });
}

/**
 * A vehicle line's Position button: the last position of that plate, as a new message to the
 * clicking user; the list it was clicked in stays as it is. The position card's Refresh updates it.
 */
export async function showPosition(
  { ack, action, body, client }: ButtonArgs,
  deps: ReportDeps,
): Promise<void> {
  await ack();
  const account = await deps.users.accountOf(body.user.id);
  if (!account || !action.value) return;
  const language = await deps.users.languageOf(body.user.id);
  const zone = await deps.users.timeZoneOf(client, body.user.id);
  await deps.tasks.submit({
    kind: "vehicle-report",
    params: {
      report: "where",
      refs: [{ type: "plate", raw: action.value, normalised: normalisePlate(action.value) }],
      timeZone: zone,
    },
    account: account.username,
    slackUser: body.user.id,
    // The position card's own Refresh replaces it; a list's Position button leaves the list as it is.
    reply: {
      ...replyFromAction(body, deps.now(), language),
      ...(fromPositionCard(action) ? {} : { keepOriginal: true }),
    },
    priority: "interactive",
  });
}

/** Blocks of a position card (views/vehicleData.ts builds them with the prefix "where."). */
const fromPositionCard = (button: ButtonAction) => button.block_id.startsWith("where.");

/** Next / previous page of a long answer: the stored result rendered again, no fleet call. */
export async function turnPage({ ack, action, body, respond }: ButtonArgs, deps: ReportDeps): Promise<void> {
  await ack();
  const language = await deps.users.languageOf(body.user.id);
  const value = parseJson(pageValue, action.value);
  const named = value ? await deps.tasks.owned(value.t, body.user.id) : undefined;
  if (named?.reason === "foreign") {
    await respond(notYoursAnswer(language));
    return;
  }
  const task = named?.task;
  if (!value || !task || task.state !== "done") {
    await respond(aside({ text: messages(language).reports.answerGone() }));
    return;
  }
  // A stored answer is fleet data: it goes only to a clicker whose own link the service accepted
  // lately (not to a link whose password was replaced since, nor a co-worker's older link).
  const account = await deps.users.accountOf(body.user.id);
  const access = account ? await deps.fleetAccess(account.username, body.user.id) : "refused";
  if (access !== "proven") {
    await respond(aside({ text: fleetAccessMessage(access, language).text }));
    return;
  }
  // The page shown stays; the user is told aside that its result is gone.
  if (task.resultNotKept) {
    await respond(
      aside({ text: resultNotKeptText(describeTask(task, language), task.resultNotKept, language) }),
    );
    return;
  }
  const rendered = await renderTask(task, deps.render, value.p);
  await respond({ replace_original: true, ...rendered.message });
}
