import { createHash } from "node:crypto";
import type {
  App,
  BlockAction,
  ButtonAction,
  RespondArguments,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { z } from "zod";
import type { TransportFormInput } from "../../etransport/form.js";
import type { Priority } from "../../fleet/seam.js";
import type { ReplyTarget } from "../../tasks/task.js";
import { ACTIONS, INPUTS, VIEWS } from "../actionIds.js";
import type { SlackContext } from "../context.js";
import { helpText } from "../grammar/help.js";
import { parseEtransportCommand } from "../grammar/index.js";
import type { EtransportCommand } from "../grammar/types.js";
import { describeTask } from "../renderers.js";
import { alertMutedMessage, parseAlertMuteValue } from "../views/alerts.js";
import { grammarErrorMessage, helpMessage, noticeMessage, statusModal } from "../views/common.js";
import {
  parseTransportButtonValue,
  parseTransportListNavValue,
  TRANSPORT_LIST_PAGE_SIZE,
} from "../views/etransport.js";
import {
  checkTransportModal,
  transportFormValues,
  transportModal,
  vehicleOptions,
} from "../views/etransportModal.js";
import type { SlackMessage } from "../views/message.js";
import { queuedMessage, queuePosition, submitAndAcknowledge } from "./acknowledge.js";
import { replyFromAction, replyFromCommand } from "./fleetCommand.js";

const ephemeral = (message: SlackMessage): RespondArguments => ({ response_type: "ephemeral", ...message });
type Ack = (response?: string | RespondArguments) => Promise<void>;

const NO_ACCOUNT = noticeMessage("You have no fleet account to act with.", "Link yours with /fleet login.");

/** Said to the clicking user alone when a button cannot run: no account, or a value we cannot read. */
const cannotAct = (hasAccount: boolean) => ({
  response_type: "ephemeral" as const,
  replace_original: false,
  ...(hasAccount ? noticeMessage("That button is out of date: run the command again.") : NO_ACCOUNT),
});

/** A short fingerprint of what a form says, for telling a double submit from a different one. */
const contentKey = (value: unknown) =>
  createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);

/** Buttons of alert messages live in blocks whose ids start with "alert." (src/slack/views/alerts.ts). */
const fromAlert = (button: ButtonAction) => button.block_id.startsWith("alert.");

const editMetadata = z.object({
  transportUId: z.string().optional(),
  uit: z.string().optional(),
  channel: z.string().optional(),
});

/**
 * /etransport and everything its messages and modals send back: list, create, edit,
 * start/pause/end (also in bulk), remove after confirmation. Every click runs as the
 * user who clicks, with their own fleet account.
 */
export function registerEtransportCommand(app: App, ctx: SlackContext): void {
  /** Warnings a user was shown for a modal: submitting the same form again confirms them. */
  const warned = new Map<string, string>();

  app.command("/etransport", async ({ command, ack, client }) => {
    const zone = await ctx.people.timeZoneOf(client, command.user_id);
    const parsed = parseEtransportCommand(command.text, { timeZone: zone, now: new Date(ctx.now()) });
    if (!parsed.ok) {
      await ack(ephemeral(grammarErrorMessage(parsed, helpText("etransport"))));
      return;
    }
    if (parsed.kind === "help") {
      await ack(ephemeral(helpMessage(helpText("etransport"))));
      return;
    }
    const account = ctx.people.accountOf(command.user_id);
    if (!account) {
      await ack(ephemeral(NO_ACCOUNT));
      return;
    }
    const reply = replyFromCommand(command, ctx.now());
    await handle(parsed, {
      ack,
      client,
      user: command.user_id,
      account: account.username,
      zone,
      reply,
      trigger: command.trigger_id,
      channel: command.channel_id,
    });
  });

  interface Scope {
    ack: Ack;
    client: WebClient;
    user: string;
    account: string;
    zone: string;
    reply: ReplyTarget;
    trigger: string;
    channel?: string;
  }

  async function handle(parsed: EtransportCommand, s: Scope): Promise<void> {
    switch (parsed.kind) {
      case "list":
        await submit(s, {
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
        await submit(s, {
          kind: "transport-action",
          params: { action: parsed.kind, uits, refresh: uits.length === 1, timeZone: s.zone },
          // The same action on the same transports while one is pending runs once (double clicks).
          dedupeKey: `${s.account}:${parsed.kind}:${uits.join(",")}`,
        });
        return;
      }
      case "remove":
        await submit(s, {
          kind: "transport-find",
          params: { uit: parsed.uit, purpose: "remove", timeZone: s.zone },
        });
        return;
      case "edit":
        await openEditModal(s, parsed.uit);
        return;
      case "new":
        await s.ack();
        ctx.warmVehicles(s.account, s.user);
        await s.client.views.open({
          trigger_id: s.trigger,
          view: transportModal({
            mode: "create",
            vehicles: vehiclesOf(s.account),
            userTimeZone: s.zone,
            privateMetadata: { channel: s.channel },
          }),
        });
        return;
      case "modal":
        await s.ack(
          ephemeral(
            noticeMessage(
              `Name the transport: \`/etransport ${parsed.form} <UIT>\`, e.g. \`/etransport ${parsed.form} Y45R-577U-N544-GY4S\`.`,
              "/etransport list shows your transports with buttons.",
            ),
          ),
        );
        return;
    }
  }

  /** Opens a "looking up" modal at once (the trigger lasts 3 s), filled in when the transport arrives. */
  async function openEditModal(s: Scope, uit: string): Promise<void> {
    await s.ack();
    const opened = await s.client.views.open({
      trigger_id: s.trigger,
      view: statusModal(
        "Edit transport",
        `:hourglass_flowing_sand: Looking up ${uit} with the fleet service…`,
        VIEWS.transportEdit,
      ),
    });
    const viewId = opened.view?.id;
    ctx.runner.submit({
      kind: "transport-find",
      params: { uit, purpose: "edit", timeZone: s.zone },
      account: s.account,
      slackUser: s.user,
      reply: { viewId, channel: s.channel },
      priority: "interactive",
    });
  }

  async function submit(
    s: Scope,
    task: { kind: string; params: unknown; dedupeKey?: string; priority?: Priority },
  ): Promise<void> {
    await submitAndAcknowledge(
      ctx,
      {
        ...task,
        account: s.account,
        slackUser: s.user,
        reply: s.reply,
        priority: task.priority ?? "interactive",
      },
      (queued) => s.ack(ephemeral(queuedMessage(ctx, queued))),
    );
  }

  function vehiclesOf(account: string) {
    return ctx.vehicles.peek(account)?.vehicles.map((v) => ({
      vehicleUId: v.vehicleUId ?? "",
      plate: v.vehicleRegistrationNumber ?? "",
      name: v.vehicleName ?? "",
    }));
  }

  // ---------- buttons on transport cards ----------

  const actionButton = (action: "start" | "pause" | "end") =>
    app.action<BlockAction<ButtonAction>>(
      action === "start"
        ? ACTIONS.transportStart
        : action === "pause"
          ? ACTIONS.transportPause
          : ACTIONS.transportEnd,
      async ({ ack, action: button, body, respond, client }) => {
        await ack();
        const value = parseTransportButtonValue(button.value);
        const account = ctx.people.accountOf(body.user.id);
        if (!value || !account) {
          await respond(cannotAct(account !== undefined));
          return;
        }
        const zone = await ctx.people.timeZoneOf(client, body.user.id);
        const { created } = ctx.runner.submit({
          kind: "transport-action",
          params: { action, uits: [value.u], refresh: true, listTaskId: value.l, timeZone: zone },
          // Runs as the clicking user's account, never the one who posted the message.
          account: account.username,
          slackUser: body.user.id,
          // On a channel's alert the answer goes to the clicking user; the poller updates the alert.
          reply: {
            ...replyFromAction(body, ctx.now()),
            ...(fromAlert(button) ? { keepOriginal: true } : {}),
          },
          priority: "interactive",
          dedupeKey: `${account.username}:${action}:${value.u}`,
        });
        if (!created) return; // a double click: the first one is running
      },
    );
  actionButton("start");
  actionButton("pause");
  actionButton("end");

  app.action<BlockAction<ButtonAction>>(ACTIONS.alertMute, async ({ ack, action, body, respond }) => {
    await ack();
    const value = parseAlertMuteValue(action.value);
    if (!value) return;
    const mute = ctx.alerts.subscriptions.mute(value.c, value.u);
    const zone = await ctx.people.timeZoneOf(app.client, body.user.id);
    await respond({
      response_type: "ephemeral",
      replace_original: false,
      ...alertMutedMessage(value.u, value.c, mute.until, zone),
    });
  });

  app.action<BlockAction<ButtonAction>>(ACTIONS.transportRemove, async ({ ack, action, body, respond }) => {
    await ack();
    const value = parseTransportButtonValue(action.value);
    const account = ctx.people.accountOf(body.user.id);
    if (!value || !account) {
      await respond(cannotAct(account !== undefined));
      return;
    }
    // Slack's confirm dialog already asked: this click is the confirmation.
    ctx.runner.submit({
      kind: "transport-remove",
      params: { uit: value.u, transportUId: value.id },
      account: account.username,
      slackUser: body.user.id,
      reply: replyFromAction(body, ctx.now()),
      priority: "interactive",
      dedupeKey: `${account.username}:remove:${value.id}`,
    });
  });

  app.action<BlockAction<ButtonAction>>(ACTIONS.transportEdit, async ({ ack, action, body, client }) => {
    await ack();
    const value = parseTransportButtonValue(action.value);
    const account = ctx.people.accountOf(body.user.id);
    if (!value || !account) return;
    const zone = await ctx.people.timeZoneOf(client, body.user.id);
    await openEditModal(
      {
        ack: async () => {},
        client,
        user: body.user.id,
        account: account.username,
        zone,
        reply: {},
        trigger: body.trigger_id,
        channel: body.channel?.id,
      },
      value.u,
    );
  });

  app.action<BlockAction<ButtonAction>>(
    ACTIONS.transportShow,
    async ({ ack, action, body, client, respond }) => {
      await ack();
      const value = parseTransportButtonValue(action.value);
      const account = ctx.people.accountOf(body.user.id);
      if (!value || !account) return;
      const zone = await ctx.people.timeZoneOf(client, body.user.id);
      ctx.runner.submit({
        kind: "transport-find",
        params: { uit: value.u, purpose: "show", timeZone: zone },
        account: account.username,
        slackUser: body.user.id,
        reply: body.response_url
          ? {
              responseUrl: body.response_url,
              responseUrlIssuedAt: ctx.now(),
              responseUrlUses: 0,
              channel: body.channel?.id,
            }
          : { channel: body.channel?.id },
        priority: "interactive",
      });
      if (body.response_url)
        await respond({
          response_type: "ephemeral",
          replace_original: false,
          text: `Looking up ${value.u}…`,
        });
    },
  );

  const turnListPage = async ({
    ack,
    action,
    body,
    client,
  }: {
    ack: () => Promise<void>;
    action: ButtonAction;
    body: BlockAction;
    client: WebClient;
  }) => {
    await ack();
    const nav = parseTransportListNavValue(action.value);
    const account = ctx.people.accountOf(body.user.id);
    if (!nav || !account) return;
    const zone = await ctx.people.timeZoneOf(client, body.user.id);
    const parsed = parseEtransportCommand(`list ${nav.f === "default" ? "" : nav.f} ${nav.s ?? ""}`, {
      timeZone: zone,
      now: new Date(ctx.now()),
    });
    if (!parsed.ok || parsed.kind !== "list") return;
    ctx.runner.submit({
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
      reply: replyFromAction(body, ctx.now()),
      priority: "interactive",
    });
  };
  app.action<BlockAction<ButtonAction>>(ACTIONS.transportListNext, async (args) => turnListPage(args));
  app.action<BlockAction<ButtonAction>>(ACTIONS.transportListPrevious, async (args) => turnListPage(args));

  // ---------- the create / edit modal ----------

  const submitTransport =
    (mode: "create" | "edit") =>
    async ({ ack, view, body }: SlackViewMiddlewareArgs<ViewSubmitAction>) => {
      const account = ctx.people.accountOf(body.user.id);
      const metadata = (() => {
        try {
          return editMetadata.parse(JSON.parse(view.private_metadata || "{}"));
        } catch {
          return {};
        }
      })();
      const input: TransportFormInput = transportFormValues(
        view.state.values as Parameters<typeof transportFormValues>[0],
      );
      const zone = await ctx.people.timeZoneOf(app.client, body.user.id);
      const vehicle = account
        ? ctx.vehicles.peek(account.username)?.vehicles.find((v) => v.vehicleUId === input.vehicleUId)
        : undefined;
      const checked = checkTransportModal(input, {
        mode,
        nowMs: ctx.now(),
        timeZone: zone,
        vehiclePlate: vehicle?.vehicleRegistrationNumber,
      });
      if (!account) {
        await ack({
          response_action: "errors",
          errors: { [INPUTS.transportVehicle.block]: "Link a fleet account first: /fleet login." },
        });
        return;
      }
      if (!checked.ok) {
        await ack({ response_action: "errors", errors: checked.errors });
        return;
      }
      // Warnings (validity longer than the legal spans…) do not block: shown once, the same submission again confirms.
      const warningKey = checked.warnings.join("\n");
      if (warningKey && warned.get(view.id) !== warningKey) {
        warned.set(view.id, warningKey);
        await ack({
          response_action: "errors",
          errors: {
            [INPUTS.transportValidityEnd.block]:
              `${checked.warnings.join(" ")} Submit again to save anyway.`.slice(0, 1900),
          },
        });
        return;
      }
      warned.delete(view.id);
      const draft = {
        ...checked.value,
        ...(mode === "edit" && metadata.uit ? { codeUit: metadata.uit } : {}),
      };
      await submitAndAcknowledge(
        ctx,
        {
          kind: "transport-save",
          params: {
            draft,
            transportUId: mode === "edit" ? metadata.transportUId : undefined,
            timeZone: zone,
          },
          account: account.username,
          slackUser: body.user.id,
          reply: { viewId: view.id, channel: metadata.channel, inChannel: true },
          priority: "interactive",
          // The same form submitted twice runs once; a different one (a corrected edit) runs too.
          dedupeKey: `${account.username}:save:${draft.codeUit ?? metadata.transportUId}:${contentKey(draft)}`,
        },
        (queued) =>
          ack({
            response_action: "update",
            view: statusModal(
              mode === "create" ? "New transport" : "Edit transport",
              queued.created
                ? `:hourglass_flowing_sand: ${describeTask(queued.task)}: queued${queuePosition(queued)}. The transport card will be posted where you asked.`
                : `${describeTask(queued.task)} is already queued; it runs once.`,
              mode === "create" ? VIEWS.transportCreate : VIEWS.transportEdit,
            ),
          }),
      );
    };
  app.view<ViewSubmitAction>(VIEWS.transportCreate, submitTransport("create"));
  app.view<ViewSubmitAction>(VIEWS.transportEdit, submitTransport("edit"));

  app.options<"block_suggestion">(
    { block_id: INPUTS.transportVehicle.block },
    async ({ ack, body, options }) => {
      const account = ctx.people.accountOf(body.user.id);
      const vehicles = account ? vehiclesOf(account.username) : undefined;
      if (account && !vehicles) ctx.warmVehicles(account.username, body.user.id);
      await ack(vehicleOptions(options.value ?? "", vehicles ?? []));
    },
  );
}
