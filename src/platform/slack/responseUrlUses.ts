import { createHash } from "node:crypto";
import type { SharedState } from "../store/sharedState.js";

/**
 * Slack accepts five uses of a response_url within 30 minutes. With one process the count kept on
 * the task is enough; with several replicas a progress update on one and a cancel notice on another
 * could both read "3 used" and spend the answer's use, so the Redis mode also counts each use in the
 * shared state (a window of uses, taken atomically; a refused use is not counted).
 */
export const RESPONSE_URL_USES = 5;
/** The URL lives 30 minutes; its uses are remembered a little longer. */
const USES_WINDOW_MS = 31 * 60_000;

/** Takes one use of the URL when fewer than `limit` were taken; false when none is left. */
export async function takeResponseUrlUse(shared: SharedState, url: string, limit: number): Promise<boolean> {
  // The URL is a credential of sorts: only its hash is kept.
  const key = `response-url:${createHash("sha256").update(url).digest("hex")}`;
  return (await shared.takeInWindow(key, limit, USES_WINDOW_MS)).ok;
}
