/** English, transport alerts (src/alerts codes and kinds → words). */
import type { Section } from "../section.js";

export const alerts = {
  /**
   * The alert on a transmission problem. TrackGPS names its notification for it "Data
   * Transmission Interruption to ANAF" (docs.trackgps.ro/en/etransport/managment/transmissionstatus).
   */
  transmissionInterrupted: () => "GPS transmission interrupted",
} satisfies Section;
