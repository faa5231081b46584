/**
 * English, tasks: what a queued, running, finished, failed or cancelled request says (progress,
 * the queue, the ack's place and estimate), and the fleet service's and fleetbot's failures by code.
 */
import type { Section } from "../section.js";

export const tasks = {} satisfies Section;
