/**
 * Where fleetbot may post a `response_url`: Slack's own hosts over https, or the host of
 * SLACK_API_URL (a GovSlack deployment, the sandbox, or the fake Slack in tests). A signed
 * request's response_url is Slack's anyway; this is the second lock, for anything that reached a
 * listener by another way (a forged request once did), so answers never go to a stranger's URL.
 */

/** Slack's commercial and GovSlack domains: response URLs live on hosts under them. */
const SLACK_DOMAINS = ["slack.com", "slack-gov.com"];

function hostUnder(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** `apiUrl`: SLACK_API_URL; its host (and port) is trusted as Slack's whatever its scheme. */
export function responseUrlAllowed(responseUrl: string, apiUrl?: string): boolean {
  let url: URL;
  try {
    url = new URL(responseUrl);
  } catch {
    return false;
  }
  // No credentials smuggled into the authority (https://hooks.slack.com@evil.example/...).
  if (url.username !== "" || url.password !== "") return false;
  if (url.protocol === "https:" && SLACK_DOMAINS.some((domain) => hostUnder(url.hostname, domain)))
    return true;
  if (!apiUrl) return false;
  try {
    const api = new URL(apiUrl);
    return url.protocol === api.protocol && url.host === api.host;
  } catch {
    return false;
  }
}

/** Every response_url a Slack payload carries (commands and actions: one; view submissions: a list). */
export function responseUrlsOf(body: unknown): string[] {
  if (typeof body !== "object" || body === null) return [];
  const urls: string[] = [];
  if ("response_url" in body && typeof body.response_url === "string") urls.push(body.response_url);
  if ("response_urls" in body && Array.isArray(body.response_urls)) {
    for (const entry of body.response_urls) {
      if (typeof entry === "object" && entry !== null && "response_url" in entry) {
        if (typeof entry.response_url === "string") urls.push(entry.response_url);
      }
    }
  }
  return urls;
}
