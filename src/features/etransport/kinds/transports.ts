/**
 * The e-Transport kinds' parameters and results: `transport-list`, `transport-find`,
 * `transport-save` and `transport-remove` (their handlers: tasks/handlers/transports.ts).
 */
import { z } from "zod";
import { zoneNoteField } from "../../../platform/tasks/zoneNote.js";
import type { TransportView } from "../types.js";

/**
 * fleetbot's own code in the audit trail for a change the service answered `false` to (stored as a
 * code, never words: the history words it in its reader's language).
 */
export const NOT_CONFIRMED = "NotConfirmed";

// ---------- list ----------

export const transportListParams = z.object({
  statusIds: z.array(z.number().int()).min(1),
  search: z.string().optional(),
  pageIndex: z.number().int().min(0),
  pageSize: z.number().int().min(1).max(100),
  filterLabel: z.string(),
  filter: z.string(),
  timeZone: z.string(),
  ...zoneNoteField,
});
export type TransportListParams = z.infer<typeof transportListParams>;
export interface TransportListResult {
  transports: TransportView[];
  totalRecords: number;
}

// ---------- find (before edit or remove) ----------

export const transportFindParams = z.object({
  uit: z.string().regex(/^[A-Z0-9]{16}$/),
  purpose: z.enum(["edit", "remove", "show"]),
  timeZone: z.string(),
  ...zoneNoteField,
});
export type TransportFindParams = z.infer<typeof transportFindParams>;
export interface TransportFindResult {
  transport?: TransportView;
}

// ---------- add and update ----------

const draftSchema = z.object({
  vehicleUId: z.string().min(1),
  codeUit: z
    .string()
    .regex(/^[A-Z0-9]{16}$/)
    .optional(),
  vatNumber: z.string().min(2),
  validityStartMs: z.number(),
  validityEndMs: z.number(),
  transmissionStartMs: z.number().optional(),
  transmissionEndMs: z.number().optional(),
  startLocation: z.string().optional(),
  endLocation: z.string().optional(),
  trailer1Code: z.string().optional(),
  trailer2Code: z.string().optional(),
  notes: z.string().optional(),
});
/** A transport as the form saves it (add or update). */
export type TransportDraft = z.infer<typeof draftSchema>;

export const transportSaveParams = z.object({
  draft: draftSchema,
  /** Set for an update; absent for a new transport. */
  transportUId: z.string().optional(),
  timeZone: z.string(),
  ...zoneNoteField,
});
export type TransportSaveParams = z.infer<typeof transportSaveParams>;
export interface TransportSaveResult {
  saved: boolean;
  transport?: TransportView;
  /** True when a crash-resumed task found the change already made. */
  alreadyThere?: boolean;
}

// ---------- remove ----------

export const transportRemoveParams = z.object({
  uit: z.string().regex(/^[A-Z0-9]{16}$/),
  transportUId: z.string().min(1),
});
export type TransportRemoveParams = z.infer<typeof transportRemoveParams>;
export interface TransportRemoveResult {
  removed: boolean;
  uit: string;
}
