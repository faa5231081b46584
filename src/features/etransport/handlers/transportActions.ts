import type { FleetSession } from "../../../platform/fleet/client.js";
import { TRANSPORT_STATUS, type TransportActionResult } from "../../../platform/fleet/schemas.js";
import type { UitOutcome } from "../../../platform/tasks/audit.js";
import { progressWithSetup } from "../../../platform/tasks/plannedCalls.js";
import type { KindHandler } from "../../taskKinds.js";
import { type TransportAction, transportActionParams } from "../kinds/transportAction.js";
import type { TransportView } from "../types.js";
import { findTransport } from "./transports.js";

/** The status a transport is in once the action took effect (our reading of the life cycle). */
const STATUS_AFTER: Record<TransportAction, readonly number[]> = {
  start: [TRANSPORT_STATUS.inProgress],
  pause: [TRANSPORT_STATUS.paused],
  end: [TRANSPORT_STATUS.completed, TRANSPORT_STATUS.autoCompleted],
};

const LISTED_STATUSES = [
  TRANSPORT_STATUS.pending,
  TRANSPORT_STATUS.inProgress,
  TRANSPORT_STATUS.completed,
  TRANSPORT_STATUS.autoCompleted,
  TRANSPORT_STATUS.paused,
];

function uitOutcome(result: TransportActionResult): UitOutcome {
  if (result.isSuccess) return { uit: result.codeUit, outcome: "success" };
  return {
    uit: result.codeUit,
    outcome: "failure",
    ...(result.errors.length > 0 ? { message: result.errors.join("; ") } : {}),
  };
}

/**
 * Start, pause or end transports: all UITs in one request body, per-UIT results back.
 * Idempotent across crashes: if the request may have reached the service before the bot
 * died, the UITs are looked up first and the request is sent again only if they are not
 * already in the state the action leads to.
 */
export const transportActionHandler: KindHandler<"transport-action", FleetSession> = {
  kind: "transport-action",
  params: transportActionParams,
  plan: (p) => 1 + (p.refresh ? p.uits.length : 0),
  async run(ctx) {
    const { action, uits, refresh } = ctx.params;
    const total = 1 + (refresh ? uits.length : 0);
    const progress = progressWithSetup(ctx, ctx.session.loginCalls());
    progress(0, total);
    const results = await ctx.mutation(`${action}:${uits.join(",")}`, {
      alreadyApplied: async () => {
        const found: TransportActionResult[] = [];
        for (const uit of uits) {
          const page = await ctx.session.loadTransports(
            { statusIds: LISTED_STATUSES, searchValue: uit, pageSize: 10, pageIndex: 0 },
            ctx.call,
          );
          const transport = page.transports.find((t) => t.codeUit?.toUpperCase() === uit);
          if (!transport || !STATUS_AFTER[action].includes(transport.statusId)) return undefined;
          found.push({ codeUit: uit, isSuccess: true, errors: [], reported: false });
        }
        return found;
      },
      send: () => {
        if (action === "start") return ctx.session.startTransports(uits, ctx.call);
        if (action === "pause") return ctx.session.pauseTransports(uits, ctx.call);
        return ctx.session.endTransports(uits, ctx.call);
      },
      // One entry per UIT, with the service's own errors for that UIT.
      audit: { action, uits, outcomes: (answer) => answer.map(uitOutcome) },
    });
    progress(1, total);
    const after: TransportView[] = [];
    if (refresh) {
      for (const uit of uits) {
        const transport = await findTransport(ctx.session, uit, ctx.call);
        if (transport) after.push(transport);
        progress(1 + after.length, total);
      }
    }
    return { results, after };
  },
};
