/** Romanian, transport alerts. */
import type { alerts as en } from "../en/alerts.js";
import type { SameParameters, Translation } from "../section.js";

export const alerts = {
  /**
   * "transmisie GPS întreruptă": the dispatchers' words (the issue), for what TrackGPS calls the
   * "Data Transmission Interruption to ANAF" notification (docs.trackgps.ro/en/etransport/
   * managment/transmissionstatus, the recommendation under the table).
   */
  transmissionInterrupted: () => "Transmisie GPS întreruptă",
} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof alerts>;
