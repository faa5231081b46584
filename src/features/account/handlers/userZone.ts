import type { PeriodLabel } from "../../../commands/periodLabel.js";
import type { TaskHandler } from "../../../platform/tasks/runner.js";
import { zoneWasGuessed } from "../../../platform/tasks/zoneNote.js";
import type { WorkspaceKey } from "../../../platform/workspaces/workspace.js";

/**
 * The invoking user's zone, settled in the task rather than before the ack. A command is
 * parsed and acknowledged at once with the zone known then (the cached one, else the
 * company's), so a wrong argument is still answered immediately; the task then settles the
 * zone (cache or users.info, company zone with a note when Slack does not say) and, when it
 * differs, reads the period again as typed, at the instant it was typed, in the settled zone.
 * The settled parameters are stored, so the answer and a resumed task use the same zone.
 */

export interface SettledZone {
  zone: string;
  /** The company's zone, because Slack did not say the user's. */
  guessed?: boolean;
}

export interface UserZoneDeps {
  /** The user's zone, from the cache or Slack (never throws: falls back with a note). */
  settle(slackUser: string, workspace: WorkspaceKey): Promise<SettledZone>;
  /** Stores a task's settled parameters. */
  saveParams(taskId: string, params: unknown): void;
}

type ZoneParams = { timeZone?: string; zoneGuessed?: boolean; zoneNote?: string };

/** The parameters in the settled zone; a kind whose parsing used the zone re-reads it here. */
export type Rezone<P> = (params: P, zone: SettledZone, typedAt: number) => P;

export function withZone<P extends ZoneParams>(params: P, zone: SettledZone): P {
  // An absent flag is written undefined, which the stored JSON leaves out; an old note goes.
  return {
    ...params,
    timeZone: zone.zone,
    zoneGuessed: zone.guessed ? true : undefined,
    zoneNote: undefined,
  };
}

/**
 * Reads a typed period in a zone at an instant; undefined when it does not parse. The grammar
 * lives with the commands (src/commands): main.ts hands it in, so tasks import no Slack code.
 */
export type PeriodReader = (
  text: string,
  timeZone: string,
  now: Date,
) => { fromMs: number; toMs: number; label: PeriodLabel } | undefined;

/**
 * A typed period (its text kept) read again in the settled zone at the instant it was typed;
 * a period picked in a form (instants, no text) stays as it is.
 */
export function rezonePeriod(readPeriod: PeriodReader) {
  return <
    P extends ZoneParams & { period?: { text?: string; fromMs: number; toMs: number; label: PeriodLabel } },
  >(
    params: P,
    zone: SettledZone,
    typedAt: number,
  ): P => {
    const settled = withZone(params, zone);
    const period = params.period;
    if (!period || period.text === undefined) return settled;
    const read = readPeriod(period.text, zone.zone, new Date(typedAt));
    if (!read) return settled;
    return { ...settled, period: { ...read, text: period.text } };
  };
}

/** Wraps a handler: the zone is settled (and the parameters re-read and stored) before it runs. */
export function settlingUserZone<P extends ZoneParams, R, S, K extends string>(
  handler: TaskHandler<P, R, S> & { kind: K },
  deps: UserZoneDeps,
  rezone: Rezone<P>,
): TaskHandler<P, R, S> & { kind: K } {
  return {
    ...handler,
    async run(ctx) {
      const user = ctx.task.slackUser;
      if (!user) return handler.run(ctx);
      const zone = await deps.settle(user, ctx.task.workspace);
      if (zone.zone === ctx.params.timeZone && Boolean(zone.guessed) === zoneWasGuessed(ctx.params))
        return handler.run(ctx);
      const params = rezone(ctx.params, zone, ctx.task.createdAt);
      deps.saveParams(ctx.task.id, params);
      return handler.run({ ...ctx, params });
    },
  };
}
