/**
 * The account commands and `/fleet language` answer in the user's language, resolved once per
 * request: unit tests of the listeners with fake deps (the e2e tests walk the same in English).
 */
import type { WebClient } from "@slack/web-api";
import { describe, expect, it } from "vitest";
import { languageCommand } from "../../../src/features/account/slack/language.js";
import { login, loginWorkspace, logout, whoami } from "../../../src/features/account/slack/listeners.js";
import type { AccountDeps, LanguageDeps } from "../../../src/features/context.js";
import { showQueue } from "../../../src/features/queue/slack/listeners.js";
import type { Language } from "../../../src/i18n/language.js";
import type { LanguageSource } from "../../../src/i18n/resolve.js";

type Answer = { text?: string; blocks?: unknown };

function recorder() {
  const answers: Answer[] = [];
  const opened: unknown[] = [];
  const ack = async (answer?: unknown) => {
    if (answer !== undefined) answers.push(answer as Answer);
  };
  const client = { views: { open: async (v: unknown) => opened.push(v) } } as unknown as WebClient;
  const said = () => answers.map((a) => `${a.text}\n${JSON.stringify(a.blocks)}`).join("\n");
  return { ack, client, answers, opened, said };
}

function accountDeps(
  language: Language,
  account: { username: string; linked: boolean } | undefined,
  over: Partial<AccountDeps> = {},
): AccountDeps & { lookups: number } {
  const deps = {
    lookups: 0,
    now: () => 0,
    users: {
      timeZoneOf: async () => "UTC",
      zoneAtAck: () => "UTC",
      accountOf: async () => account,
      languageOf: async () => {
        deps.lookups++;
        return language;
      },
    },
    tasks: {} as AccountDeps["tasks"],
    linking: { seal: () => "sealed", attempts: { take: async () => ({ ok: true as const }) } },
    unlink: async () => true,
    ...over,
  };
  return deps as AccountDeps & { lookups: number };
}

const args = (r: ReturnType<typeof recorder>, language?: Language) => ({
  ack: r.ack,
  client: r.client,
  userId: "U0DANA",
  channelId: "C1",
  triggerId: "t",
  ...(language ? { language } : {}),
});

describe("/fleet whoami, logout, login", () => {
  it("whoami: the account and how, in each language", async () => {
    const en = recorder();
    await whoami(args(en), accountDeps("en", { username: "dana", linked: true }));
    expect(en.said()).toContain("Your commands run as the fleet account *dana* (linked by you).");
    expect(en.said()).toContain("Unlink with /fleet logout.");
    const ro = recorder();
    await whoami(args(ro), accountDeps("ro", { username: "firma", linked: false }));
    expect(ro.said()).toContain(
      "Comenzile tale rulează cu contul platformei GPS *firma* (contul workspace-ului).",
    );
    expect(ro.said()).toContain("Asociază-ți propriul cont cu /fleet login.");
    const none = recorder();
    await whoami(args(none), accountDeps("ro", undefined));
    expect(none.said()).toContain("Nu ți-ai asociat un cont pe platforma GPS");
  });

  it("the command's language is used as given: not looked up again", async () => {
    const r = recorder();
    const deps = accountDeps("en", { username: "dana", linked: true });
    await whoami(args(r, "ro"), deps);
    expect(r.said()).toContain("asociat de tine");
    expect(deps.lookups).toBe(0);
  });

  it("logout: unlinked, and who the commands run as now", async () => {
    const r = recorder();
    await logout(args(r), accountDeps("ro", { username: "firma", linked: false }));
    expect(r.said()).toContain(
      "Contul tău pe platforma GPS a fost dezasociat, iar parola lui a fost ștearsă.",
    );
    expect(r.said()).toContain("De acum comenzile tale rulează cu contul workspace-ului, firma.");
    const en = recorder();
    await logout(args(en), accountDeps("en", undefined, { unlink: async () => false }));
    expect(en.said()).toContain("You had no linked fleet account.");
  });

  it("login: the form in the user's language; refused without a key", async () => {
    const r = recorder();
    await login(args(r), accountDeps("ro", undefined));
    expect(JSON.stringify(r.opened)).toContain("Asociază contul GPS");
    const off = recorder();
    await login(args(off), accountDeps("ro", { username: "firma", linked: false }, { linking: null }));
    expect(off.said()).toContain("Asocierea propriului cont pe platforma GPS nu este activată aici");
    expect(off.said()).toContain("Până atunci, comenzile tale rulează cu contul workspace-ului.");
  });

  it("login workspace: by the operator in single-workspace mode; refused to a plain user", async () => {
    const single = recorder();
    await loginWorkspace(args(single), accountDeps("en", undefined));
    expect(single.said()).toContain(
      "This fleetbot serves one workspace: its workspace account is set by whoever runs it",
    );
    const refused = recorder();
    await loginWorkspace(
      args(refused),
      accountDeps("ro", undefined, { workspaceAccount: { mayManage: async () => false } }),
    );
    expect(refused.said()).toContain("Doar cine a instalat fleetbot aici");
    const unknown = recorder();
    await loginWorkspace(
      args(unknown),
      accountDeps("ro", undefined, { workspaceAccount: { mayManage: async () => undefined } }),
    );
    expect(unknown.said()).toContain("Slack nu ne-a transmis la timp");
  });

  it("/fleet queue without an account, in the user's language", async () => {
    const r = recorder();
    await showQueue({ ack: r.ack, userId: "U0DANA" }, accountDeps("ro", undefined));
    expect(r.said()).toContain("Nu ți-ai asociat un cont pe platforma GPS");
    expect(r.said()).toContain("Asociază-ți contul cu /fleet login.");
  });
});

describe("/fleet language", () => {
  function languageDeps(
    current: { language: Language; source: LanguageSource },
    over: Partial<LanguageDeps> = {},
  ): LanguageDeps & { chosen: Language[] } {
    const chosen: Language[] = [];
    return {
      chosen,
      now: () => 0,
      defaultLanguage: "en",
      users: {
        timeZoneOf: async () => "UTC",
        zoneAtAck: () => "UTC",
        accountOf: async () => undefined,
        languageOf: async () => current.language,
      },
      current: async () => current,
      choose: async (_user, language) => {
        chosen.push(language);
      },
      ...over,
    };
  }

  it("shows the current one and where it comes from", async () => {
    const en = recorder();
    await languageCommand(
      args(en),
      { scope: "user" },
      languageDeps({ language: "en", source: "configured" }),
    );
    expect(en.said()).toContain("Your language is *English* (fleetbot's default: you have not chosen one).");
    const ro = recorder();
    await languageCommand(args(ro), { scope: "user" }, languageDeps({ language: "ro", source: "user" }));
    expect(ro.said()).toContain("Limba ta este *româna* (aleasă de tine).");
    expect(ro.said()).toContain("`/fleet limba en` (engleză)");
  });

  it("confirms a choice in the language just chosen", async () => {
    const r = recorder();
    const deps = languageDeps({ language: "en", source: "configured" });
    await languageCommand(args(r), { scope: "user", language: "ro" }, deps);
    expect(deps.chosen).toEqual(["ro"]);
    expect(r.said()).toContain("Limba ta este acum româna.");
    expect(r.said()).toContain("`/fleet limba en`");
    const back = recorder();
    await languageCommand(
      args(back),
      { scope: "user", language: "en" },
      languageDeps({ language: "ro", source: "user" }),
    );
    expect(back.said()).toContain("Your language is now English.");
  });

  it("the workspace form: the operator's in single-workspace mode; set by an admin, in the setter's language", async () => {
    const single = recorder();
    await languageCommand(
      args(single),
      { scope: "workspace", language: "ro" },
      languageDeps({ language: "ro", source: "user" }),
    );
    expect(single.said()).toContain("Acest fleetbot servește un singur workspace");
    expect(single.said()).toContain("DEFAULT_LANGUAGE, acum engleza");
    let set: Language | undefined;
    const deps = languageDeps(
      { language: "en", source: "user" },
      {
        workspaceDefault: {
          mayManage: async () => true,
          set: async (l) => {
            set = l;
          },
        },
      },
    );
    const admin = recorder();
    await languageCommand(args(admin), { scope: "workspace", language: "ro" }, deps);
    expect(set).toBe("ro");
    expect(admin.said()).toContain(
      "This workspace's default language is now Romanian: everyone here who has not chosen their own gets it. Yours stays English (your choice).",
    );
  });
});
