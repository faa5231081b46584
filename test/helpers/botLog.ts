/** The bot logs `{"url": …, "msg": "fleetbot listening on …"}` once it serves: its URL, from one log line. */
export function listeningUrl(line: string): string | undefined {
  if (!line.includes("fleetbot listening")) return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed === "object" && parsed !== null && "url" in parsed && typeof parsed.url === "string")
      return parsed.url;
  } catch {
    // not JSON: read the text
  }
  return /listening on (http:\/\/\S+?)\s/.exec(line)?.[1];
}
