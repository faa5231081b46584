/** Whether a user is a member of a channel, as Slack says (conversations.members). */
import type { WebClient } from "@slack/web-api";

/**
 * Whether the user is a member of the channel, by conversations.members (every page). False
 * when Slack hides the channel from the bot (a private channel it is not in: nobody can be
 * shown to be in it); undefined when Slack did not answer (rate limit, network).
 */
export async function isChannelMember(
  client: WebClient,
  channel: string,
  userId: string,
): Promise<boolean | undefined> {
  let cursor: string | undefined;
  try {
    for (let page = 0; page < 50; page++) {
      const answer = await client.conversations.members({
        channel,
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      });
      if (answer.members?.includes(userId)) return true;
      cursor = answer.response_metadata?.next_cursor || undefined;
      if (!cursor) return false;
    }
    return undefined;
  } catch (error) {
    const code =
      typeof error === "object" && error !== null && "data" in error ? slackErrorCode(error.data) : undefined;
    return code === "channel_not_found" || code === "not_in_channel" ? false : undefined;
  }
}

function slackErrorCode(data: unknown): string | undefined {
  return typeof data === "object" && data !== null && "error" in data && typeof data.error === "string"
    ? data.error
    : undefined;
}
