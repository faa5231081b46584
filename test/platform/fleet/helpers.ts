import { type CallGate, sendAtOnce, type UpstreamCall } from "../../../src/platform/fleet/seam.js";

/** A gate without spacing that records every call it runs (endpoint, shareKey, context). */
export function recordingGate(): CallGate & { calls: UpstreamCall[] } {
  const calls: UpstreamCall[] = [];
  return {
    calls,
    run: (call, send) => {
      calls.push(call);
      return sendAtOnce(send);
    },
  };
}

export const DAY_MS = 86_400_000;
