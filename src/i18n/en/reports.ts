/** English, vehicle reports (/fleet where, route, stops, fuel, refills, temps). */
import type { Section } from "../section.js";

export const reports = {} satisfies Section;
