/** The `transport-action` kind's parameters and result (its handler: tasks/handlers/transportActions.ts). */
import { z } from "zod";
import type { TransportActionResult } from "../../../platform/fleet/schemas.js";
import { zoneNoteField } from "../../../platform/tasks/zoneNote.js";
import type { TransportView } from "../types.js";

export const TRANSPORT_ACTIONS = ["start", "pause", "end"] as const;
export type TransportAction = (typeof TRANSPORT_ACTIONS)[number];

export const transportActionParams = z.object({
  action: z.enum(TRANSPORT_ACTIONS),
  uits: z.array(z.string().regex(/^[A-Z0-9]{16}$/)).min(1),
  /** Look the transports up afterwards so their cards show the new state (one call per UIT). */
  refresh: z.boolean().default(false),
  /** The list message the click came from (a task id): it is re-rendered with the card updated. */
  listTaskId: z.string().optional(),
  timeZone: z.string().optional(),
  ...zoneNoteField,
});
export type TransportActionParams = z.infer<typeof transportActionParams>;

export interface TransportActionOutcome {
  results: TransportActionResult[];
  /** The transports as the service has them after the action (when refresh was asked). */
  after: TransportView[];
}
