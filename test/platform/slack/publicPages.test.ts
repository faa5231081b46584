/**
 * The public pages of multi-workspace mode (GET /, GET /privacy) and the end of "Add to Slack":
 * complete documents without external assets, the links Slack's Marketplace asks for, the
 * retention figures of the running configuration, and every interpolated value escaped.
 */
import { describe, expect, it } from "vitest";
import {
  escapeHtml,
  type InstallErrorReason,
  installErrorPage,
  installSuccessPage,
  landingPage,
  privacyPage,
} from "../../../src/platform/web/publicPages.js";

const SUPPORT = "https://support.example.com/fleetbot";

const landing = landingPage({ installPath: "/slack/install", supportUrl: SUPPORT });
const privacy = privacyPage({ supportUrl: SUPPORT, taskRetentionDays: 21, auditRetentionDays: 365 });

/** Undoes escapeHtml (the page's only entities). */
function unescapeHtml(value: string): string {
  return value
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");
}

/** The hrefs of the document's links, unescaped. */
function hrefs(html: string): string[] {
  return [...html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)].map((m) => unescapeHtml(m[1] ?? ""));
}

/** The text a reader sees: tags dropped, whitespace collapsed. */
function text(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

const ALL_PAGES: [string, string][] = [
  ["landing", landing],
  ["privacy", privacy],
  ...(["denied", "state", "failed"] as const).map((reason): [string, string] => [
    `install error ${reason}`,
    installErrorPage(reason),
  ]),
  [
    "install success",
    installSuccessPage({
      teamName: "Acme Logistics",
      appUrl: "https://slack.com/app_redirect?app=A1&team=T1",
    }),
  ],
  ["install success, no team", installSuccessPage()],
];

describe("public pages", () => {
  it.each(ALL_PAGES)("%s is a complete document with no external asset", (_name, html) => {
    expect(html.startsWith("<!doctype html>\n")).toBe(true);
    expect(html).toMatch(/<html lang="en">/);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toContain("<style>");
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
    for (const tag of ["head", "body", "main", "title", "style"]) {
      expect(html.split(`<${tag}>`).length - 1, tag).toBe(1);
      expect(html.split(`</${tag}>`).length - 1, tag).toBe(1);
    }
    // Every opened element of the common kinds is closed.
    for (const tag of ["h1", "h2", "p", "ul", "li", "a", "code", "strong", "footer"]) {
      const opened = html.match(new RegExp(`<${tag}[\\s>]`, "g"))?.length ?? 0;
      const closed = html.match(new RegExp(`</${tag}>`, "g"))?.length ?? 0;
      expect(closed, tag).toBe(opened);
    }
    expect(html).not.toMatch(/<(script|img|link|iframe)\b/i);
    expect(html).not.toMatch(/\bsrc=/i);
    expect(html).not.toMatch(/url\(/i);
  });

  it("landing: says what fleetbot does, with Add to Slack, privacy and support links", () => {
    const links = hrefs(landing);
    expect(links).toContain("/slack/install");
    expect(links).toContain("/privacy");
    expect(links).toContain(SUPPORT);
    expect(landing).toMatch(/<a class="add" href="\/slack\/install">Add to Slack<\/a>/);
    const words = text(landing).toLowerCase();
    for (const feature of [
      "stops",
      "fuel",
      "refills",
      "reefer temperatures",
      "RO e-Transport",
      "UIT",
      "alert",
      "GPS transmission",
    ])
      expect(words, feature).toContain(feature.toLowerCase());
  });

  it("landing: the install path is the one given", () => {
    expect(hrefs(landingPage({ installPath: "/other/install", supportUrl: SUPPORT }))).toContain(
      "/other/install",
    );
  });

  it("privacy: names every kind of stored data and the retention figures passed in", () => {
    const words = text(privacy);
    for (const kind of [
      "installation",
      "bot token",
      "refresh token",
      "AES-256-GCM",
      "CREDENTIALS_KEY",
      "fleet username",
      "password",
      "subscriptions",
      "incidents",
      "alert posts",
      "mutes",
      "parameters",
      "result",
      "queue job",
      "audit trail of transport changes",
      "time zone",
    ])
      expect(words, kind).toContain(kind);
    expect(words).toContain("deleted 21 days after they finish");
    expect(words).toContain("30 days after they resolve");
    expect(words).toContain("a day after it was delivered");
    expect(words).toContain("365 days");
    expect(hrefs(privacy)).toContain(SUPPORT);
  });

  it("privacy: says what an uninstall deletes, within a minute, and that other workspaces are untouched", () => {
    const words = text(privacy);
    expect(words).toMatch(/Uninstalling fleetbot from a workspace, or Slack revoking its tokens, deletes/);
    for (const kind of [
      "installation",
      "linked accounts and their sealed passwords",
      "subscriptions",
      "incidents",
      "mutes",
      "queued and finished tasks with their results and queue jobs",
      "cached users",
      "within a minute",
      "Other workspaces are not touched",
      "starts clean",
    ])
      expect(words, kind).toContain(kind);
  });

  it("privacy: one day is said as such", () => {
    const words = text(privacyPage({ supportUrl: SUPPORT, taskRetentionDays: 1, auditRetentionDays: 400 }));
    expect(words).toContain("deleted 1 day after they finish");
    expect(words).toContain("400 days");
  });

  it.each<[InstallErrorReason, RegExp]>([
    ["denied", /cancelled/],
    ["state", /could not be verified/],
    ["failed", /try again/],
  ])("install error %s says why and links to a new install", (reason, why) => {
    const html = installErrorPage(reason);
    expect(text(html)).toMatch(why);
    expect(hrefs(html)).toContain("/slack/install");
  });

  it("install error: a support link when one is given", () => {
    expect(hrefs(installErrorPage("failed", { supportUrl: SUPPORT }))).toContain(SUPPORT);
    expect(hrefs(installErrorPage("failed"))).not.toContain(SUPPORT);
  });

  it("install success: names the workspace and the first steps", () => {
    const html = installSuccessPage({
      teamName: "Acme Logistics",
      appUrl: "https://slack.com/app_redirect?app=A1&team=T1",
    });
    const words = text(html);
    expect(words).toContain("fleetbot is installed in Acme Logistics");
    expect(words).toContain("/fleet login workspace");
    expect(words).toContain("/fleet help");
    expect(html).toContain('href="https://slack.com/app_redirect?app=A1&amp;team=T1"');
    expect(text(installSuccessPage())).toContain("fleetbot is installed.");
  });
});

describe("escaping", () => {
  it("escapeHtml escapes the five characters that matter", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });

  it("a <script> in a team name comes out escaped", () => {
    const html = installSuccessPage({ teamName: "<script>alert(1)</script> & Co" });
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co");
  });

  it("URLs are escaped in attributes and cannot break out of them", () => {
    const support = 'https://support.example.com/?a=1&b="><script>alert(1)</script>';
    for (const html of [
      landingPage({ installPath: "/slack/install", supportUrl: support }),
      privacyPage({ supportUrl: support, taskRetentionDays: 14, auditRetentionDays: 400 }),
      installErrorPage("state", { supportUrl: support }),
    ]) {
      expect(html).not.toContain("<script>");
      expect(hrefs(html)).toContain(support);
    }
  });

  it("a javascript: or scheme-relative link target is shown as text, never as a link", () => {
    for (const bad of ["javascript:alert(1)", "//evil.example/install", "data:text/html,hi"]) {
      const landingHtml = landingPage({ installPath: bad, supportUrl: bad });
      expect(hrefs(landingHtml)).not.toContain(bad);
      expect(text(landingHtml)).toContain("Add to Slack");
      expect(hrefs(installSuccessPage({ appUrl: bad }))).not.toContain(bad);
    }
  });
});
