import { TZDate } from "@date-fns/tz";
import type { App, BlockAction, ButtonAction, ViewSubmitAction } from "@slack/bolt";
import type { PlainTextOption } from "@slack/types";
import { startOfDay } from "date-fns";
import { z } from "zod";
import { encryptSecret } from "../../store/accountStore.js";
import type { VehicleReportParams } from "../../tasks/handlers/vehicleData.js";
import { ACTIONS, INPUTS, VIEWS } from "../actionIds.js";
import type { SlackContext } from "../context.js";
import { helpText } from "../grammar/help.js";
import { normalisePlate } from "../grammar/vehicles.js";
import { describeTask, renderTask } from "../renderers.js";
import { homeView, loginModal, queueMessage, statusModal } from "../views/common.js";
import { queuePosition, submitAndAcknowledge } from "./acknowledge.js";
import { replyFromAction } from "./fleetCommand.js";
import { queueEntries } from "./queue.js";

const pageValue = z.object({ t: z.string(), p: z.number().int().min(0) });
const modalMetadata = z.object({ channel: z.string().optional() });

function parseJson<T>(schema: z.ZodType<T>, text: string | undefined): T | undefined {
  if (!text) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Buttons, modal submissions and select options. Each runs as the user who clicks. */
export function registerInteractions(app: App, ctx: SlackContext): void {
  app.action<BlockAction<ButtonAction>>(ACTIONS.cancelTask, async ({ ack, action, body, respond }) => {
    await ack();
    const task = ctx.tasks.get(action.value ?? "");
    const account = ctx.people.accountOf(body.user.id);
    if (!task || task.state === "done" || task.state === "failed" || task.state === "cancelled") {
      await respond({
        response_type: "ephemeral",
        replace_original: false,
        text: "That request has already finished.",
      });
      return;
    }
    // Only someone acting as the same fleet account may cancel its work.
    if (task.slackUser !== body.user.id && account?.username !== task.account) {
      await respond({
        response_type: "ephemeral",
        replace_original: false,
        text: "You can only cancel requests of your own fleet account.",
      });
      return;
    }
    ctx.runner.cancel(task.id);
    await respond({
      response_type: "ephemeral",
      replace_original: false,
      text: `Cancelling: ${describeTask(task)}.`,
    });
  });

  const turnPage = async (args: {
    ack: () => Promise<void>;
    action: ButtonAction;
    body: BlockAction;
    respond: (m: object) => Promise<unknown>;
  }) => {
    await args.ack();
    const value = parseJson(pageValue, args.action.value);
    const task = value ? ctx.tasks.get(value.t) : undefined;
    if (!value || !task || task.state !== "done") {
      await args.respond({
        response_type: "ephemeral",
        replace_original: false,
        text: "That answer is no longer available; run the command again.",
      });
      return;
    }
    const rendered = await renderTask(task, { now: ctx.now, companyTimeZone: ctx.companyTimeZone }, value.p);
    await args.respond({ replace_original: true, ...rendered.message });
  };
  app.action<BlockAction<ButtonAction>>(ACTIONS.pageNext, async (args) => turnPage(args));
  app.action<BlockAction<ButtonAction>>(ACTIONS.pagePrevious, async (args) => turnPage(args));

  app.action<BlockAction<ButtonAction>>(ACTIONS.refreshQueue, async ({ ack, body, respond }) => {
    await ack();
    const account = ctx.people.accountOf(body.user.id);
    if (!account) return;
    await respond({
      replace_original: true,
      ...queueMessage(account.username, await queueEntries(ctx, account.username), ctx.now()),
    });
  });

  app.action<BlockAction<ButtonAction>>(ACTIONS.showPosition, async ({ ack, action, body, respond }) => {
    await ack();
    const account = ctx.people.accountOf(body.user.id);
    if (!account || !action.value) return;
    const zone = await ctx.people.timeZoneOf(app.client, body.user.id);
    const params: VehicleReportParams = {
      report: "where",
      refs: [{ type: "plate", raw: action.value, normalised: normalisePlate(action.value) }],
      timeZone: zone,
    };
    ctx.runner.submit({
      kind: "vehicle-report",
      params,
      account: account.username,
      slackUser: body.user.id,
      reply: replyFromAction(body, ctx.now()),
      priority: "interactive",
    });
    await respond({
      response_type: "ephemeral",
      replace_original: false,
      text: `Looking up ${action.value}…`,
    });
  });

  app.action<BlockAction<ButtonAction>>(ACTIONS.homeLogin, async ({ ack, body, client }) => {
    await ack();
    if (!ctx.accounts.canStore) return;
    await client.views.open({ trigger_id: body.trigger_id, view: loginModal(JSON.stringify({})) });
  });

  app.action<BlockAction<ButtonAction>>(ACTIONS.homeLogout, async ({ ack, body, client }) => {
    await ack();
    const linkedAs = ctx.accounts.usernameOf(body.user.id);
    ctx.accounts.unlink(body.user.id);
    if (linkedAs) ctx.releaseAccount(linkedAs);
    await publishHome(ctx, client, body.user.id);
  });

  app.view<ViewSubmitAction>(VIEWS.login, async ({ ack, view, body }) => {
    const values = view.state.values;
    const username = values[INPUTS.loginUsername.block]?.[INPUTS.loginUsername.action]?.value?.trim() ?? "";
    const password = values[INPUTS.loginPassword.block]?.[INPUTS.loginPassword.action]?.value ?? "";
    const errors: Record<string, string> = {};
    if (!username) errors[INPUTS.loginUsername.block] = "Enter your fleet-service user name or e-mail.";
    if (!password) errors[INPUTS.loginPassword.block] = "Enter your fleet-service password.";
    if (!ctx.credentialsKey)
      errors[INPUTS.loginUsername.block] = "Linking is not enabled (no CREDENTIALS_KEY).";
    if (Object.keys(errors).length > 0 || !ctx.credentialsKey) {
      await ack({ response_action: "errors", errors });
      return;
    }
    const metadata = parseJson(modalMetadata, view.private_metadata);
    await submitAndAcknowledge(
      ctx,
      {
        kind: "account-link",
        params: { username, sealedPassword: encryptSecret(ctx.credentialsKey, password, body.user.id) },
        account: username,
        slackUser: body.user.id,
        reply: { viewId: view.id, channel: metadata?.channel },
        priority: "interactive",
      },
      () =>
        ack({
          response_action: "update",
          view: statusModal(
            "Link fleet account",
            `:hourglass_flowing_sand: Checking *${username}* with the fleet service… The answer comes as a direct message.`,
          ),
        }),
    );
  });

  app.view<ViewSubmitAction>(VIEWS.report, async ({ ack, view, body }) => {
    const account = ctx.people.accountOf(body.user.id);
    const values = view.state.values;
    const kind = values[INPUTS.reportKind.block]?.[INPUTS.reportKind.action]?.selected_option?.value;
    const vehicles =
      values[INPUTS.reportVehicles.block]?.[INPUTS.reportVehicles.action]?.selected_options ?? [];
    const fromSec =
      values[INPUTS.reportFrom.block]?.[INPUTS.reportFrom.action]?.selected_date_time ?? undefined;
    const toSec = values[INPUTS.reportTo.block]?.[INPUTS.reportTo.action]?.selected_date_time ?? undefined;
    const minText =
      values[INPUTS.reportMinMinutes.block]?.[INPUTS.reportMinMinutes.action]?.value ?? undefined;
    const zone = await ctx.people.timeZoneOf(app.client, body.user.id);
    const nowMs = ctx.now();
    const errors: Record<string, string> = {};
    if (!account) errors[INPUTS.reportKind.block] = "Link a fleet account first: /fleet login.";
    const report = z.enum(["where", "route", "stops", "fuel", "refills", "temps"]).safeParse(kind);
    if (!report.success) errors[INPUTS.reportKind.block] = "Choose a report.";
    if (vehicles.length === 0) errors[INPUTS.reportVehicles.block] = "Choose at least one vehicle.";
    const fromMs = fromSec ? fromSec * 1000 : startOfToday(nowMs, zone);
    const toMs = toSec ? Math.min(toSec * 1000, nowMs) : nowMs;
    if (fromMs >= toMs)
      errors[INPUTS.reportTo.block] = "The end must be after the start (and the start in the past).";
    const minMinutes = minText ? Number(minText) : undefined;
    if (minMinutes !== undefined && (!Number.isInteger(minMinutes) || minMinutes < 1)) {
      errors[INPUTS.reportMinMinutes.block] = "A whole number of minutes, at least 1 (e.g. 10).";
    }
    if (Object.keys(errors).length > 0 || !account || !report.success) {
      await ack({ response_action: "errors", errors });
      return;
    }
    const single = report.data === "where" || report.data === "route" || report.data === "refills";
    const chosen = single ? vehicles.slice(0, 1) : vehicles;
    const metadata = parseJson(modalMetadata, view.private_metadata);
    const params: VehicleReportParams = {
      report: report.data,
      refs: chosen.map((o) => ({
        type: "id",
        raw: o.text.text,
        normalised: o.value,
        vehicleId: Number(o.value),
      })),
      period: report.data === "where" ? undefined : { fromMs, toMs, label: periodLabel(fromMs, toMs, zone) },
      minMinutes: report.data === "stops" ? (minMinutes ?? 5) : undefined,
      timeZone: zone,
    };
    await submitAndAcknowledge(
      ctx,
      {
        kind: "vehicle-report",
        params,
        account: account.username,
        slackUser: body.user.id,
        reply: { viewId: view.id, channel: metadata?.channel },
        priority: report.data === "where" ? "interactive" : "report",
      },
      (queued) =>
        ack({
          response_action: "update",
          view: statusModal(
            "Fleet report",
            `:hourglass_flowing_sand: ${describeTask(queued.task)}: queued${queuePosition(queued)}. The answer comes as a direct message; /fleet queue shows progress.`,
            VIEWS.report,
          ),
        }),
    );
  });

  // Vehicle selects in modals: answered within Slack's 3 s from the cached list only.
  app.options<"block_suggestion">(
    { block_id: INPUTS.reportVehicles.block },
    async ({ ack, body, options }) => {
      const account = ctx.people.accountOf(body.user.id);
      const cached = account ? ctx.vehicles.peek(account.username) : undefined;
      if (account && !cached) ctx.warmVehicles(account.username, body.user.id);
      const query = normalisePlate(options.value ?? "");
      const text = (options.value ?? "").toLowerCase();
      const matches = (cached?.vehicles ?? []).filter(
        (v) =>
          !query ||
          normalisePlate(v.vehicleRegistrationNumber ?? "").includes(query) ||
          (v.vehicleName ?? "").toLowerCase().includes(text),
      );
      const opts: PlainTextOption[] = matches.slice(0, 100).map((v) => ({
        text: {
          type: "plain_text",
          text: `${v.vehicleRegistrationNumber ?? `#${v.vehicleId}`} ${v.vehicleName ?? ""}`
            .trim()
            .slice(0, 75),
        },
        value: String(v.vehicleId),
      }));
      await ack({ options: opts });
    },
  );

  app.event("app_home_opened", async ({ event, client }) => {
    if (event.tab !== "home") return;
    await publishHome(ctx, client, event.user);
  });
}

async function publishHome(ctx: SlackContext, client: App["client"], userId: string): Promise<void> {
  const account = ctx.people.accountOf(userId);
  const queue = account
    ? (await queueEntries(ctx, account.username)).filter((e) => e.task.slackUser === userId)
    : [];
  const accountLine = account
    ? `You act as the fleet account *${account.username}* (${account.linked ? "linked by you" : "the workspace account"}).`
    : "You have no fleet account: link yours to use fleetbot.";
  await client.views.publish({
    user_id: userId,
    view: homeView(
      { accountLine, linked: account?.linked ?? false, queue, help: helpText("all") },
      ctx.now(),
    ),
  });
}

/** Midnight of the reader's day (the form's default start), DST-correct via @date-fns/tz. */
function startOfToday(nowMs: number, zone: string): number {
  return startOfDay(new TZDate(nowMs, zone)).getTime();
}

function periodLabel(fromMs: number, toMs: number, zone: string): string {
  const format = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    dateStyle: "medium",
    timeStyle: "short",
  });
  return `${format.format(new Date(fromMs))} – ${format.format(new Date(toMs))}`;
}
