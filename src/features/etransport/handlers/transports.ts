import type { FleetSession } from "../../../platform/fleet/client.js";
import type { CallContext } from "../../../platform/fleet/seam.js";
import type { UitOutcome } from "../../../platform/tasks/audit.js";
import { progressWithSetup } from "../../../platform/tasks/plannedCalls.js";
import type { KindHandler } from "../../taskKinds.js";
import { toAddTransportParams, toUpdateTransportParams } from "../form.js";
import {
  NOT_CONFIRMED,
  type TransportDraft,
  transportFindParams,
  transportListParams,
  transportRemoveParams,
  transportSaveParams,
} from "../kinds/transports.js";
import { type TransportView, toTransportView } from "../types.js";

/** Every status load-transports lists (Error, 5, never is). */
export const LISTED_STATUS_IDS = [1, 2, 3, 4, 6];

/** The transport with this UIT, as the service has it now (one load-transports call). */
export async function findTransport(
  session: FleetSession,
  uit: string,
  ctx: CallContext,
): Promise<TransportView | undefined> {
  const page = await session.loadTransports(
    { statusIds: LISTED_STATUS_IDS, searchValue: uit, pageSize: 10, pageIndex: 0 },
    ctx,
  );
  const found = page.transports.find((t) => t.codeUit?.toUpperCase() === uit);
  return found ? toTransportView(found) : undefined;
}

/** Every UIT of a call the service answered with one boolean. */
function confirmedOrNot(uits: readonly string[], ok: boolean): UitOutcome[] {
  return uits.map((uit) =>
    ok ? { uit, outcome: "success" } : { uit, outcome: "failure", code: NOT_CONFIRMED },
  );
}

// ---------- list ----------

export const transportListHandler: KindHandler<"transport-list", FleetSession> = {
  kind: "transport-list",
  params: transportListParams,
  plan: () => 1,
  async run(ctx) {
    const progress = progressWithSetup(ctx, ctx.session.loginCalls());
    progress(0, 1);
    const p = ctx.params;
    const page = await ctx.session.loadTransports(
      { statusIds: p.statusIds, searchValue: p.search, pageIndex: p.pageIndex, pageSize: p.pageSize },
      ctx.call,
    );
    progress(1, 1);
    return { transports: page.transports.map(toTransportView), totalRecords: page.totalRecords };
  },
};

// ---------- find (before edit or remove) ----------

export const transportFindHandler: KindHandler<"transport-find", FleetSession> = {
  kind: "transport-find",
  params: transportFindParams,
  plan: () => 1,
  async run(ctx) {
    const progress = progressWithSetup(ctx, ctx.session.loginCalls());
    progress(0, 1);
    const transport = await findTransport(ctx.session, ctx.params.uit, ctx.call);
    progress(1, 1);
    return transport ? { transport } : {};
  },
};

// ---------- add and update ----------

/** What update-transport leaves on the transport, to recognise an update that already went through. */
function matchesDraft(t: TransportView, d: TransportDraft): boolean {
  return (
    t.carrierUId === d.vehicleUId &&
    t.validityStartMs === d.validityStartMs &&
    t.validityEndMs === d.validityEndMs &&
    (t.notes ?? undefined) === (d.notes ?? undefined) &&
    (t.startLocation ?? undefined) === (d.startLocation ?? undefined) &&
    (t.endLocation ?? undefined) === (d.endLocation ?? undefined)
  );
}

/**
 * Creates or updates a transport, idempotently: a task resumed after a crash first looks
 * the UIT up (add: does it exist? update: does it already carry the new values?).
 */
export const transportSaveHandler: KindHandler<"transport-save", FleetSession> = {
  kind: "transport-save",
  params: transportSaveParams,
  // The add or update, then the lookup that shows the saved transport.
  plan: () => 2,
  async run(ctx) {
    const { draft, transportUId } = ctx.params;
    const uit = draft.codeUit;
    const progress = progressWithSetup(ctx, ctx.session.loginCalls());
    progress(0, 2);
    let alreadyThere = false;
    const saved = await ctx.mutation(transportUId ? `update:${transportUId}` : `add:${uit}`, {
      alreadyApplied: async () => {
        if (!uit) return undefined;
        const existing = await findTransport(ctx.session, uit, ctx.call);
        if (!existing) return undefined;
        if (transportUId && !matchesDraft(existing, draft)) return undefined;
        alreadyThere = true;
        return true;
      },
      send: () =>
        transportUId
          ? ctx.session.updateTransport(toUpdateTransportParams(draft, transportUId), ctx.call)
          : ctx.session.addTransport(toAddTransportParams(draft), ctx.call),
      // A create is recorded under its new UIT (the form requires one; without it nothing is sent).
      audit: {
        action: transportUId ? "update" : "create",
        uits: uit ? [uit] : [],
        outcomes: (ok) => confirmedOrNot(uit ? [uit] : [], ok),
      },
    });
    progress(1, 2);
    const transport = saved && uit ? await findTransport(ctx.session, uit, ctx.call) : undefined;
    progress(2, 2);
    return { saved, ...(transport ? { transport } : {}), ...(alreadyThere ? { alreadyThere } : {}) };
  },
};

// ---------- remove ----------

export const transportRemoveHandler: KindHandler<"transport-remove", FleetSession> = {
  kind: "transport-remove",
  params: transportRemoveParams,
  plan: () => 1,
  async run(ctx) {
    const { uit, transportUId } = ctx.params;
    const progress = progressWithSetup(ctx, ctx.session.loginCalls());
    progress(0, 1);
    const removed = await ctx.mutation(`remove:${transportUId}`, {
      // Gone already: the removal reached the service before a crash.
      alreadyApplied: async () => ((await findTransport(ctx.session, uit, ctx.call)) ? undefined : true),
      send: () => ctx.session.removeTransports([transportUId], ctx.call),
      audit: {
        action: "remove",
        uits: [uit],
        outcomes: (ok) => confirmedOrNot([uit], ok),
      },
    });
    progress(1, 1);
    return { removed, uit };
  },
};
