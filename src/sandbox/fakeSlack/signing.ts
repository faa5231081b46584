/** Slack's request signing (v0): what the driver puts on every request it sends to the bot. */
import { createHmac } from "node:crypto";

/** "v0=" + hex HMAC-SHA256(signing secret, "v0:{timestamp}:{raw body}"). */
export function slackSignature(signingSecret: string, timestampSeconds: number, rawBody: string): string {
  const digest = createHmac("sha256", signingSecret)
    .update(`v0:${timestampSeconds}:${rawBody}`)
    .digest("hex");
  return `v0=${digest}`;
}

export function signedHeaders(
  signingSecret: string,
  timestampSeconds: number,
  rawBody: string,
): Record<string, string> {
  return {
    "x-slack-request-timestamp": String(timestampSeconds),
    "x-slack-signature": slackSignature(signingSecret, timestampSeconds, rawBody),
  };
}
