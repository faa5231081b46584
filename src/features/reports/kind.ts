/**
 * The `vehicle-report` kind's parameters and result (its handler: tasks/handlers/vehicleData.ts;
 * the result is the report catalogue's).
 */
import { z } from "zod";
import { periodLabelSchema } from "../../commands/periodLabel.js";
import { zoneNoteField } from "../../platform/tasks/zoneNote.js";
import { VEHICLE_REPORTS, type VehicleReportName, type VehicleReportResult } from "./catalogue.js";

export type { VehicleReportResult };

const reportNames = z.custom<VehicleReportName>(
  (value) => typeof value === "string" && (VEHICLE_REPORTS as readonly string[]).includes(value),
  { message: "not a vehicle report" },
);

const vehicleRefSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("all"), raw: z.string(), normalised: z.literal("ALL") }),
  z.object({ type: z.literal("id"), raw: z.string(), normalised: z.string(), vehicleId: z.number().int() }),
  z.object({ type: z.literal("plate"), raw: z.string(), normalised: z.string() }),
  z.object({ type: z.literal("name"), raw: z.string(), normalised: z.string() }),
]);

export const vehicleReportParams = z.object({
  report: reportNames,
  refs: z.array(vehicleRefSchema).default([]),
  filter: z.string().optional(),
  /** `text`: the period as typed (empty: the default, today), re-read when the task settles the zone. */
  period: z
    .object({ fromMs: z.number(), toMs: z.number(), label: periodLabelSchema, text: z.string().optional() })
    .optional(),
  minMinutes: z.number().int().min(1).optional(),
  /** The invoking user's zone: texts and files are written in it. */
  timeZone: z.string(),
  ...zoneNoteField,
});
export type VehicleReportParams = z.infer<typeof vehicleReportParams>;
