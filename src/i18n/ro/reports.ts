/** Romanian, vehicle reports (/fleet unde, traseu, opriri, combustibil, alimentări, temperaturi). */
import type { reports as en } from "../en/reports.js";
import type { SameParameters, Translation } from "../section.js";

export const reports = {} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof reports>;
