/**
 * The App Home in the reader's language: headings, the button, the account line, the requests,
 * the command list and the support line, in Romanian for a Romanian reader, English otherwise.
 */
import type { WebClient } from "@slack/web-api";
import { describe, expect, it, vi } from "vitest";
import { helpText } from "../../../../src/commands/help.js";
import { parseCommandLine } from "../../../../src/commands/index.js";
import type { QueueDeps } from "../../../../src/features/context.js";
import { publishHome } from "../../../../src/features/home/slack/listeners.js";
import { homeView } from "../../../../src/features/home/slack/views.js";
import type { QueueEntry } from "../../../../src/features/queue/slack/views.js";
import { LANGUAGES } from "../../../../src/i18n/index.js";
import { supportLine } from "../../../../src/platform/slack/views/installation.js";

const NOW = Date.parse("2026-11-22T10:00:00Z");

const entry = (state: "queued" | "running", finishInMs?: number): QueueEntry =>
  ({
    task: { state },
    description: "Raport de opriri pentru *B-123-ABC*",
    ...(finishInMs !== undefined ? { progress: { expectedFinishAt: NOW + finishInMs } } : {}),
  }) as unknown as QueueEntry;

const textOf = (view: unknown) => JSON.stringify(view);

describe("the App Home in Romanian", () => {
  it("has its headings, button, requests, help and support line in Romanian", () => {
    const view = homeView(
      {
        language: "ro",
        accountLine: "Nu ai niciun cont pe platforma GPS: asociază-l pe al tău ca să folosești fleetbot.",
        linked: false,
        queue: [entry("running", 90_000), entry("queued", 500), entry("queued")],
        help: helpText("all", undefined, "ro"),
        support: supportLine(undefined, "ro"),
      },
      NOW,
    );
    const text = textOf(view);
    expect(text).toContain('"text":"Asociază contul meu"');
    expect(text).toContain("*Cererile tale*\\n");
    expect(text).toContain("(în lucru, aproximativ 2 min)");
    expect(text).toContain("(în așteptare, sub o secundă)");
    expect(text).toContain("(în așteptare)");
    expect(text).toContain("`/fleet ajutor` (`help`) – lista aceasta");
    expect(text).toContain(
      "*Rapoarte programate*: `/fleet programează combustibil toate ieri în fiecare zi la 07:30` scris într-un canal",
    );
    expect(text).toContain("`/fleet programări` în canal arată programările lui");
    expect(text).toContain("Ajutor și asistență: întreabă persoana care a adăugat fleetbot");
    for (const english of ["Link my fleet account", "Your requests", "queued", "running", "about ", "e.g."])
      expect(text).not.toContain(english);
  });

  it("says a linked reader's button and an empty queue in Romanian", () => {
    const text = textOf(
      homeView({ language: "ro", accountLine: "…", linked: true, queue: [], help: "" }, NOW),
    );
    expect(text).toContain('"text":"Dezasociază contul meu"');
    expect(text).toContain("*Cererile tale*: nimic în așteptare.");
  });

  it("writes the operator's support page in Romanian", () => {
    expect(supportLine("https://help.example.com/fleet", "ro")).toBe(
      "Ajutor și asistență: <https://help.example.com/fleet|help.example.com> · ce păstrează fleetbot și cum se șterge: /privacy, pe același site.",
    );
  });
});

describe("the App Home in English", () => {
  it("is as before", () => {
    const text = textOf(
      homeView(
        {
          language: "en",
          accountLine: "…",
          linked: false,
          queue: [entry("running", 90_000)],
          help: helpText("all", undefined, "en"),
          support: supportLine(undefined, "en"),
        },
        NOW,
      ),
    );
    expect(text).toContain('"text":"Link my fleet account"');
    expect(text).toContain("*Your requests*\\n");
    expect(text).toContain("(running, about 2 min)");
    expect(text).toContain(
      "*Scheduled reports*: `/fleet schedule fuel all yesterday every day at 07:30` in a channel posts that report there",
    );
    expect(text).toContain("`/fleet schedules` in the channel lists its schedules");
    expect(text).toContain("Help and support: ask whoever added fleetbot");
  });
});

describe("the App Home's scheduled reports line", () => {
  it.each(LANGUAGES)(
    "%s: its commands parse, as a schedule and the list, the same in both languages",
    (language) => {
      const view = homeView({ language, accountLine: "…", linked: true, queue: [], help: "" }, NOW);
      const line = textOf(view).match(/\*(?:Scheduled reports|Rapoarte programate)\*:[^"]*/)?.[0] ?? "";
      const commands = [...line.matchAll(/`(\/fleet [^`]+)`/g)].map((m) => m[1]!);
      expect(commands).toHaveLength(2);
      const [add, list] = commands.map(
        (c) => parseCommandLine(c, { timeZone: "Europe/Bucharest", now: new Date(NOW) }).result,
      );
      expect(add).toMatchObject({
        ok: true,
        kind: "schedule-add",
        recurrence: { every: "day", time: "07:30" },
      });
      expect(list).toEqual({ ok: true, kind: "schedule-list" });
    },
  );
});

describe("publishHome", () => {
  const deps = (language: "en" | "ro", account?: { username: string; linked: boolean }) =>
    ({
      users: { accountOf: async () => account, languageOf: async () => language },
      supportUrl: undefined,
      now: () => NOW,
    }) as unknown as QueueDeps;
  const published = async (d: QueueDeps) => {
    const publish = vi.fn(async () => ({ ok: true }));
    await publishHome(d, { views: { publish } } as unknown as WebClient, "U0DISPATCH");
    expect(publish).toHaveBeenCalledTimes(1);
    return textOf(publish.mock.calls[0]);
  };

  it("publishes the tab in the user's language", async () => {
    const ro = await published(deps("ro"));
    expect(ro).toContain(
      "Nu ai niciun cont pe platforma GPS: asociază-l pe al tău ca să folosești fleetbot.",
    );
    expect(ro).toContain("Asociază contul meu");
    expect(ro).toContain("`/fleet unde &lt;vehicul&gt;` (`where`)");
    expect(ro).toContain("Ajutor și asistență");
    const en = await published(deps("en"));
    expect(en).toContain("You have no fleet account: link yours to use fleetbot.");
    expect(en).toContain("`/fleet where &lt;vehicle&gt;` (`unde`)");
  });
});
