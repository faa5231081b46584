/**
 * Tasks, the common views, failures and the account's answers in both languages: progress, the
 * queue, each failure code, cancelled, "result not kept", the login form, the link's results and
 * every task kind's description. English stays as it was; Romanian is asserted word for word
 * where a dispatcher reads it.
 */
import { describe, expect, it } from "vitest";
import { loginModal } from "../../../../src/features/account/slack/views/loginModal.js";
import { queuedMessage, queuePosition } from "../../../../src/features/acknowledge.js";
import { queueMessage } from "../../../../src/features/queue/slack/views.js";
import { describeTask, renderTask, resultNotKeptText } from "../../../../src/features/renderers.js";
import { messages } from "../../../../src/i18n/catalogue.js";
import type { Language } from "../../../../src/i18n/language.js";
import { periodText } from "../../../../src/i18n/periodText.js";
import {
  ApplicationFailureError,
  BadRequestError,
  RateLimitedError,
  RequestRuleError,
  UnauthorizedError,
  UpstreamTransportError,
} from "../../../../src/platform/fleet/errors.js";
import {
  cannotQueueMessage,
  cannotSaveMessage,
} from "../../../../src/platform/slack/listeners/storeFailure.js";
import { installWelcomeMessage } from "../../../../src/platform/slack/views/installation.js";
import type { SlackMessage } from "../../../../src/platform/slack/views/message.js";
import {
  pacingNote,
  progressMessage,
  progressPhrase,
} from "../../../../src/platform/slack/views/progress.js";
import { statusModal } from "../../../../src/platform/slack/views/statusModal.js";
import {
  cancelledMessage,
  failureMessage,
  taskErrorText,
} from "../../../../src/platform/slack/views/taskEnding.js";
import { vehicleProblemsMrkdwn } from "../../../../src/platform/slack/views/vehicleProblems.js";
import { LinkedAccountUnreadableError } from "../../../../src/platform/store/contract/index.js";
import { describeTaskError } from "../../../../src/platform/tasks/failures.js";
import {
  TASK_ERROR_CODES,
  type TaskError,
  type TaskProgress,
  type TaskRecord,
} from "../../../../src/platform/tasks/task.js";
import { WORKSPACE_ACCOUNT_USER } from "../../../../src/platform/workspaces/workspace.js";

const UIT = "AB12CD34EF56GH78";
const SHOWN = "AB12-CD34-EF56-GH78";
const NOW = Date.UTC(2026, 10, 24, 12, 0);

function task(kind: string, params: unknown, extra: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id: "task-0123456789",
    kind,
    params,
    account: "demo",
    workspace: "",
    slackUser: "U0DANA",
    reply: {},
    priority: "interactive",
    state: "queued",
    progressDone: 0,
    progressTotal: 1,
    attempts: 0,
    createdAt: NOW,
    updatedAt: NOW,
    ...extra,
  };
}

const progress = (over: Partial<TaskProgress>): TaskProgress => ({
  taskId: "task-0123456789",
  state: "queued",
  done: 0,
  total: 3,
  position: 0,
  expectedFinishAt: NOW + 30_000,
  slotMs: 30_000,
  ...over,
});

/** Every text of a message or view, joined: what a reader sees. */
const shown = (value: unknown): string => JSON.stringify(value);
const textOf = (message: SlackMessage): string => `${message.text}\n${shown(message.blocks)}`;

describe("describeTask: every kind, in the task's language", () => {
  const YESTERDAY = { kind: "yesterday" as const, day: NOW - 86_400_000 };
  const report = task("vehicle-report", {
    report: "stops",
    refs: [{ type: "plate", raw: "B-12-ABC", normalised: "B12ABC" }],
    period: { fromMs: NOW - 86_400_000, toMs: NOW, label: YESTERDAY },
    timeZone: "Europe/Bucharest",
  });
  const cases: [TaskRecord, string, string][] = [
    [
      report,
      `${messages("en").reports.title("stops")} for B-12-ABC, ${periodText(YESTERDAY, "en")}`,
      `${messages("ro").reports.title("stops")} pentru B-12-ABC, ${periodText(YESTERDAY, "ro")}`,
    ],
    [
      task("vehicle-report", {
        report: "fuel",
        refs: [{ type: "all", raw: "all", normalised: "ALL" }],
        timeZone: "Europe/Bucharest",
      }),
      "Fuel report for all vehicles",
      "Raport de combustibil pentru toate vehiculele",
    ],
    [
      // min= other than the default 5 is said, so two queued reports differing only in it read apart.
      task("vehicle-report", {
        report: "stops",
        refs: [{ type: "all", raw: "all", normalised: "ALL" }],
        minMinutes: 90,
        timeZone: "Europe/Bucharest",
      }),
      `${messages("en").reports.title("stops")} for all vehicles, stops of 1 h 30 min or more`,
      `${messages("ro").reports.title("stops")} pentru toate vehiculele, opriri de cel puțin 1 h 30 min`,
    ],
    [
      task("vehicle-report", {
        report: "stops",
        refs: [{ type: "all", raw: "all", normalised: "ALL" }],
        minMinutes: 5,
        timeZone: "Europe/Bucharest",
      }),
      `${messages("en").reports.title("stops")} for all vehicles`,
      `${messages("ro").reports.title("stops")} pentru toate vehiculele`,
    ],
    [task("vehicle-report", { nonsense: true }), "Report", "Raport"],
    [task("transport-action", { action: "start", uits: [UIT] }), `Start ${SHOWN}`, `Pornire ${SHOWN}`],
    [task("transport-action", { action: "pause", uits: [UIT] }), `Pause ${SHOWN}`, `Pauză ${SHOWN}`],
    [task("transport-action", { action: "end", uits: [UIT] }), `End ${SHOWN}`, `Finalizare ${SHOWN}`],
    [
      task("account-link", { username: "dana@example.ro" }),
      "Checking the fleet account dana@example.ro",
      "Verificarea contului platformei GPS dana@example.ro",
    ],
    [task("transport-list", {}), "Transport list", "Lista transporturilor"],
    [
      task("transport-find", { uit: UIT, purpose: "show", timeZone: "UTC" }),
      `Looking up ${SHOWN}`,
      `Căutare ${SHOWN}`,
    ],
    [
      task("transport-save", {
        draft: { vehicleUId: "v1", codeUit: UIT, vatNumber: "RO123", validityStartMs: 0, validityEndMs: 1 },
        timeZone: "UTC",
      }),
      `Creating transport ${SHOWN}`,
      `Creare transport ${SHOWN}`,
    ],
    [
      task("transport-save", {
        draft: { vehicleUId: "v1", codeUit: UIT, vatNumber: "RO123", validityStartMs: 0, validityEndMs: 1 },
        transportUId: "t-1",
        timeZone: "UTC",
      }),
      `Updating transport ${SHOWN}`,
      `Actualizare transport ${SHOWN}`,
    ],
    [task("transport-remove", { uit: UIT, transportUId: "t-1" }), `Removing ${SHOWN}`, `Ștergere ${SHOWN}`],
  ];
  it.each(cases)("%#: English and Romanian", (t, english, romanian) => {
    expect(describeTask(t, "en")).toBe(english);
    expect(describeTask(t, "ro")).toBe(romanian);
  });

  it("an unknown kind is named as stored, escaped", () => {
    expect(describeTask(task("<!channel>", {}), "ro")).not.toContain("<!channel>");
  });
});

describe("progress", () => {
  const what = "Raport opriri pentru B-12-ABC";
  it("next in line, with its estimate and the account's pacing; Cancel in the reader's language", () => {
    const en = progressMessage("Stops report", progress({}), NOW, "en");
    expect(en.text).toBe(":hourglass_flowing_sand: Stops report: next in line, about 30 s");
    expect(shown(en.blocks)).toContain("The fleet service answers one request every 30 seconds per account.");
    expect(shown(en.blocks)).toContain('"text":"Cancel"');
    const ro = progressMessage(what, progress({}), NOW, "ro");
    expect(ro.text).toBe(`:hourglass_flowing_sand: ${what}: urmează la rând, aproximativ 30 s`);
    expect(shown(ro.blocks)).toContain("la o cerere la fiecare 30 de secunde");
    expect(shown(ro.blocks)).toContain('"text":"Anulează"');
  });

  it("a place in the queue, calls made, nothing left to ask, under a second", () => {
    const at = (p: Partial<TaskProgress>, language: Language) => progressPhrase(progress(p), NOW, language);
    expect(at({ position: 2, expectedFinishAt: NOW + 95_000 }, "en")).toBe(
      "position 3 in the queue, about 2 min",
    );
    expect(at({ position: 2, expectedFinishAt: NOW + 95_000 }, "ro")).toBe(
      "locul 3 în coadă, aproximativ 2 min",
    );
    expect(at({ done: 2, total: 5, expectedFinishAt: NOW + 3_725_000 }, "en")).toBe(
      "2/5 requests, about 1 h 2 min left",
    );
    expect(at({ done: 2, total: 5, expectedFinishAt: NOW + 3_725_000 }, "ro")).toBe(
      "2/5 cereri, încă aproximativ 1 h 2 min",
    );
    expect(at({ done: 1, total: 20 }, "ro")).toBe("1/20 de cereri, încă aproximativ 30 s");
    expect(at({ done: 1, total: 1 }, "en")).toBe("answering now");
    expect(at({ done: 1, total: 1 }, "ro")).toBe("răspunsul vine acum");
    expect(at({ expectedFinishAt: NOW + 400 }, "ro")).toBe("urmează la rând, sub o secundă");
  });

  it("the pacing: one second, seconds, a minute, minutes, unknown", () => {
    expect(pacingNote(1_000, "en")).toBe("The fleet service answers one request every second per account.");
    expect(pacingNote(1_000, "ro")).toBe("Platforma GPS răspunde, pentru un cont, la o cerere pe secundă.");
    expect(pacingNote(2_250, "ro")).toContain("la fiecare 2 secunde");
    expect(pacingNote(60_000, "en")).toContain("every minute per account");
    expect(pacingNote(60_000, "ro")).toContain("pe minut");
    expect(pacingNote(120_000, "en")).toContain("every 2 minutes per account");
    expect(pacingNote(1_200_000, "ro")).toContain("la fiecare 20 de minute");
    expect(pacingNote(undefined, "ro")).toContain("câte o cerere pe rând");
  });

  it("the ack: queued, already queued, a modal's position, in the task's language", () => {
    const stored = task("transport-list", {}, { reply: { language: "ro" } });
    expect(queuedMessage({ now: () => NOW }, { task: stored, created: false }).text).toBe(
      "Lista transporturilor: deja în coadă; va rula o singură dată.",
    );
    expect(queuedMessage({ now: () => NOW }, { task: stored, created: true }).text).toBe(
      "Lista transporturilor: în coadă.",
    );
    expect(queuedMessage({ now: () => NOW }, { task: stored, created: false }, "en").text).toBe(
      "Transport list: already queued; it runs once.",
    );
    const placed = { task: stored, created: true, progress: progress({ position: 4 }) };
    expect(queuePosition(placed)).toBe(", locul 5");
    expect(queuePosition(placed, "en")).toBe(", position 5");
    expect(textOf(queuedMessage({ now: () => NOW }, placed))).toContain("locul 5 în coadă");
  });
});

describe("/fleet queue", () => {
  const entry = (n: number, state: "queued" | "running" = "queued") => ({
    task: task("transport-list", { timeZone: "Europe/Bucharest" }, { id: `task-${n}`, state }),
    description: messages("ro").tasks.transportList(),
    progress: progress({ taskId: `task-${n}`, state, done: 1, total: 4, expectedFinishAt: NOW + 60_000 }),
  });

  it("the account's requests, counted with Romanian plurals, their state, who asked and when", () => {
    const message = queueMessage("demo", [entry(1, "running")], NOW, "ro", 1234);
    const text = textOf(message);
    expect(message.text).toBe("Coada contului demo: 1.234 de cereri");
    expect(text).toContain("1/4 cereri, aproximativ 1 min");
    expect(text).toContain(messages("ro").help.homeTaskState("running"));
    // The time in the one form, in the task's zone (14:00 in Bucharest at 12:00 UTC).
    expect(text).toContain(`cerută de <@U0DANA> la <!date^${NOW / 1000}^{time}|14:00>`);
    expect(text).toContain("…și încă 1.233.");
    expect(text).toContain('"text":"Actualizează"');
    expect(text).toContain('"text":"Anulează"');
  });

  it("English as before", () => {
    const message = queueMessage("demo", [entry(1)], NOW, "en", 2);
    expect(message.text).toBe("Queue of demo: 2 requests");
    expect(textOf(message)).toContain("queued, 1/4 requests, about 1 min");
    expect(textOf(message)).toContain("…and 1 more.");
    expect(queueMessage("demo", [entry(1)], NOW, "en", 1).text).toBe("Queue of demo: 1 request");
  });

  it("nothing waiting", () => {
    expect(queueMessage("demo", [], NOW, "en").text).toBe("Nothing is waiting for the fleet account *demo*.");
    expect(queueMessage("demo", [], NOW, "ro").text).toBe(
      "Nimic nu așteaptă pentru contul platformei GPS *demo*.",
    );
  });
});

describe("failures: a code and parameters stored, words in the reader's language", () => {
  const errors: [string, unknown][] = [
    [
      "etransport",
      new ApplicationFailureError(
        "start-transports",
        [{ errorCode: "TransportNotFound", errorParameters: [UIT] }],
        "corr-1",
      ),
    ],
    ["internal", new Error("boom")],
    ["credentials", new LinkedAccountUnreadableError("U0DANA", "dana")],
    [
      "rule-max-vehicles",
      new RequestRuleError("stops", "max-vehicles", { params: { max: 100, given: 120 } }),
    ],
    ["rule-max-period", new RequestRuleError("consumption", "max-period", { params: { days: 31 } })],
    ["rule-min-stationary-margin", new RequestRuleError("stops", "min-stationary-margin")],
    ["rule", new RequestRuleError("add-transport", "required", { subject: "code-uit" })],
    ["bad-request", new BadRequestError("stops", [{ errorCode: "BadDate", errorParameters: ["x"] }])],
    ["unauthorized-login", new UnauthorizedError("login", "login")],
    ["unauthorized-password-changed", new UnauthorizedError("company-vehicles", "password-changed")],
    ["unauthorized-expired", new UnauthorizedError("stops", "expired")],
    ["unauthorized-vehicles", new UnauthorizedError("stops", "access")],
    ["unauthorized-access", new UnauthorizedError("load-transports", "access")],
    ["rate-limited", new RateLimitedError("stops", 1000)],
    ["application", new ApplicationFailureError("stops", [{ errorCode: "Busy", errorParameters: [] }])],
    ["transport-timeout", new UpstreamTransportError("stops", "timeout", "t")],
    ["transport-network", new UpstreamTransportError("stops", "network", "t")],
    ["transport-http", new UpstreamTransportError("stops", "http", "t")],
    ["transport-malformed", new UpstreamTransportError("stops", "malformed", "t")],
  ];

  /** Codes no error gives any more, read from rows stored before rules carried a subject. */
  const STORED_ONLY = ["rule-period-order", "rule-empty-list"];

  it("covers every code", () => {
    expect([...errors.map(([code]) => code), ...STORED_ONLY].sort()).toEqual([...TASK_ERROR_CODES].sort());
  });

  it("a period or vehicle rule reads the same from an old row's code as from its rule and subject", () => {
    for (const language of ["en", "ro"] as const) {
      for (const [code, error] of [
        ["rule-period-order", new RequestRuleError("stops", "period-order", { subject: "period" })],
        ["rule-empty-list", new RequestRuleError("way", "empty-list", { subject: "vehicles" })],
      ] as const) {
        const now = describeTaskError(error);
        expect(now.code).toBe("rule");
        expect(taskErrorText(now, language)).toBe(taskErrorText({ kind: "rule", code }, language));
      }
    }
  });

  it.each(errors)("%s: stored without words; worded differently in each language", (code, error) => {
    const stored = describeTaskError(error);
    expect(stored.code).toBe(code);
    expect(stored.message).toBeUndefined();
    const en = taskErrorText(stored, "en");
    const ro = taskErrorText(stored, "ro");
    expect(en.length).toBeGreaterThan(10);
    expect(ro.length).toBeGreaterThan(10);
    expect(ro).not.toBe(en);
  });

  it("fleet errors: the English a dispatcher read before, the Romanian a dispatcher reads now", () => {
    const say = (error: unknown, language: Language) => taskErrorText(describeTaskError(error), language);
    const timeout = new UpstreamTransportError("stops", "timeout", "t");
    expect(say(timeout, "en")).toBe("The fleet service did not answer in time. Try again in a few minutes.");
    expect(say(timeout, "ro")).toBe(
      "Platforma GPS nu a răspuns la timp. Încearcă din nou peste câteva minute.",
    );
    const access = new UnauthorizedError("stops", "access");
    expect(say(access, "en")).toBe(
      "At least one of the listed vehicles is not accessible to this fleet account.",
    );
    const tooMany = new RequestRuleError("stops", "max-vehicles", { params: { max: 100, given: 120 } });
    expect(say(tooMany, "en")).toBe("A stops request takes at most 100 vehicles; 120 were given.");
    expect(say(tooMany, "ro")).toBe("O cerere stops acceptă cel mult 100 de vehicule; ai cerut 120.");
    const rejected = new BadRequestError("stops", [{ errorCode: "BadDate", errorParameters: ["x"] }]);
    expect(say(rejected, "en")).toBe("The fleet service refused the request as invalid (BadDate (x)).");
    expect(say(rejected, "ro")).toBe("Platforma GPS a refuzat cererea ca invalidă (BadDate (x)).");
    expect(say(new LinkedAccountUnreadableError(WORKSPACE_ACCOUNT_USER, "firma"), "ro")).toContain(
      "/fleet login workspace",
    );
  });

  it("an e-Transport failure: the service's code through the etransport catalogue, the UIT dashed", () => {
    const stored = describeTaskError(
      new ApplicationFailureError(
        "start-transports",
        [{ errorCode: "TransportNotFound", errorParameters: [UIT] }],
        "corr-1",
      ),
    );
    expect(stored).toEqual({
      kind: "application",
      code: "etransport",
      params: { errorCode: "TransportNotFound", parameters: [UIT] },
      correlationId: "corr-1",
    });
    for (const language of ["en", "ro"] as const) {
      expect(taskErrorText(stored, language)).toBe(
        messages(language).etransport.failure("TransportNotFound", [SHOWN]),
      );
    }
  });

  it("a row stored before codes shows its English words as they are; none at all, a plain failure", () => {
    const old: TaskError = { kind: "internal", message: "Something went wrong inside fleetbot." };
    expect(taskErrorText(old, "ro")).toBe("Something went wrong inside fleetbot.");
    expect(taskErrorText(undefined, "ro")).toBe("Cererea a eșuat.");
    expect(taskErrorText({ kind: "x", code: "from-a-later-version" }, "en")).toBe("The request failed.");
  });

  it("the failure message: what failed, why, and the correlation id for support", () => {
    const error = describeTaskError(
      new UpstreamTransportError("stops", "http", "t", { correlationId: "c-9" }),
    );
    const en = failureMessage("Stops report", error, "en");
    expect(en.text).toBe(
      "Stops report failed: The fleet service had an internal problem. Try again in a few minutes.",
    );
    expect(shown(en.blocks)).toContain("For support: correlation id `c-9`");
    const ro = failureMessage("Raport opriri", error, "ro");
    expect(ro.text).toBe(
      "Raport opriri nu a reușit: Platforma GPS a avut o problemă internă. Încearcă din nou peste câteva minute.",
    );
    expect(shown(ro.blocks)).toContain(":x: *Raport opriri* nu a reușit:");
    expect(shown(ro.blocks)).toContain("Pentru asistență: ID de corelare `c-9`");
  });
});

describe("endings", () => {
  it("cancelled, by someone or not", () => {
    expect(cancelledMessage("Stops report", "en", "U0DANA").text).toBe(
      ":no_entry_sign: Stops report: cancelled by <@U0DANA>.",
    );
    expect(cancelledMessage("Stops report", "en").text).toBe(":no_entry_sign: Stops report: cancelled.");
    const ro = cancelledMessage("Raport opriri", "ro", "U0DANA");
    expect(ro.text).toBe(":no_entry_sign: Raport opriri: <@U0DANA> a anulat cererea.");
    expect(shown(ro.blocks)).toContain("Apelurile deja trimise au primit răspuns");
    expect(cancelledMessage("Raport opriri", "ro").text).toBe(
      ":no_entry_sign: Raport opriri: cerere anulată.",
    );
  });

  it("a result no longer kept: its size with a decimal comma in Romanian", () => {
    const tooLarge = { reason: "too-large" as const, bytes: 12.34 * 1_048_576 };
    expect(resultNotKeptText("Stops report", tooLarge, "en")).toContain(
      "its result (12.3 MB) is too large to keep",
    );
    expect(resultNotKeptText("Raport opriri", tooLarge, "ro")).toBe(
      ":warning: Raport opriri: gata, dar rezultatul (12,3 MB) este prea mare ca să fie păstrat. Cere din nou pentru o perioadă mai scurtă sau pentru mai puține vehicule.",
    );
    expect(resultNotKeptText("Raport opriri", { reason: "expired", bytes: 1 }, "ro")).toContain(
      "rezultatul nu mai este păstrat",
    );
  });

  it("a finished task, a cancelled one and a failed one, rendered in the task's language", async () => {
    const context = { now: () => NOW, companyTimeZone: "UTC", defaultLanguage: "en" as const };
    const failed = task(
      "transport-list",
      {},
      {
        state: "failed",
        reply: { language: "ro" },
        error: { kind: "transport", code: "transport-network" },
      },
    );
    expect((await renderTask(failed, context)).message.text).toBe(
      "Lista transporturilor nu a reușit: Platforma GPS nu a putut fi contactată. Încearcă din nou peste câteva minute.",
    );
    const cancelled = task("transport-list", {}, { state: "cancelled", reply: { language: "ro" } });
    expect((await renderTask(cancelled, context)).message.text).toContain("cerere anulată");
    // No language stored (asked before languages): DEFAULT_LANGUAGE.
    const old = task("transport-list", {}, { state: "cancelled" });
    expect((await renderTask(old, { ...context, defaultLanguage: "ro" })).message.text).toContain(
      "cerere anulată",
    );
    expect((await renderTask(old, context)).message.text).toContain("Transport list: cancelled.");
  });

  it("vehicle problems: the rest counted in the reader's language", () => {
    const problems = ["a", "b", "c", "d", "e", "f", "g"];
    expect(vehicleProblemsMrkdwn(problems, "en")).toContain("…and 2 more.");
    expect(vehicleProblemsMrkdwn(problems, "ro")).toContain("…și încă 2.");
  });

  it("the store's refusals and a status modal's Close", () => {
    expect(cannotSaveMessage("ro").text).toContain("fleetbot nu poate salva cereri acum");
    expect(cannotQueueMessage("ro").text).toContain("fleetbot nu poate pune cereri în coadă acum");
    expect(cannotSaveMessage("en").text).toBe(
      ":warning: fleetbot cannot save requests right now, nothing was queued.",
    );
    expect(statusModal("fleetbot", "text", undefined, "ro").close?.text).toBe("Închide");
    expect(statusModal("fleetbot", "text", undefined, "en").close?.text).toBe("Close");
  });
});

describe("the login form and the link's result", () => {
  it("fits Slack's limits in both languages, in the reader's words", () => {
    for (const language of ["en", "ro"] as const) {
      for (const forWorkspace of [false, true]) {
        const view = loginModal("{}", language, { forWorkspace });
        expect(view.title.text.length).toBeLessThanOrEqual(24);
        expect(view.submit?.text.length ?? 0).toBeLessThanOrEqual(24);
      }
    }
    const ro = shown(loginModal("{}", "ro"));
    expect(ro).toContain("Asociază contul GPS");
    expect(ro).toContain("Nume de utilizator sau e-mail");
    expect(ro).toContain("Parolă");
    expect(ro).toContain("fereastra aceasta o vezi doar tu");
    expect(shown(loginModal("{}", "ro", { forWorkspace: true }))).toContain("Contul workspace-ului");
    const en = loginModal("{}", "en");
    expect(en.title.text).toBe("Link fleet account");
    expect(shown(en)).toContain("Slack has no password field: this modal is seen only by you.");
  });

  const linkTask = (result: unknown, language: Language, linkAs?: "workspace") =>
    task(
      "account-link",
      { username: "dana", ...(linkAs ? { linkAs } : {}) },
      {
        state: "done",
        result,
        reply: { language, channel: "C1" },
      },
    );
  const context = { now: () => NOW, companyTimeZone: "UTC", defaultLanguage: "en" as const };

  it("linked: for the user, for the workspace", async () => {
    expect((await renderTask(linkTask({ linked: true, username: "dana" }, "en"), context)).message.text).toBe(
      ":white_check_mark: Linked: your commands now run as the fleet account *dana*.",
    );
    expect((await renderTask(linkTask({ linked: true, username: "dana" }, "ro"), context)).message.text).toBe(
      ":white_check_mark: Asociat: de acum comenzile tale rulează cu contul platformei GPS *dana*.",
    );
    const workspace = await renderTask(
      linkTask({ linked: true, username: "firma" }, "ro", "workspace"),
      context,
    );
    expect(workspace.message.text).toContain("toți cei din acest workspace");
  });

  it("refused (a code): the form back with the refusal under the password, and a note", async () => {
    const refused = await renderTask(
      linkTask({ linked: false, username: "dana", code: "login" }, "ro"),
      context,
    );
    expect(refused.message.text).toBe(
      ":x: Platforma GPS nu a acceptat acest nume de utilizator și această parolă (sau utilizatorul este inactiv).",
    );
    expect(shown(refused.message.blocks)).toContain("Încearcă din nou cu /fleet login.");
    expect(shown(refused.view)).toContain("Verifică parola, apoi apasă din nou Asociază.");
    expect(shown(refused.view)).toContain('"initial_value":"dana"');
    const en = await renderTask(
      linkTask({ linked: false, username: "dana", code: "login" }, "en", "workspace"),
      context,
    );
    expect(en.message.text).toBe(
      ":x: The fleet service did not accept this user name and password (or the user is inactive).",
    );
    expect(shown(en.message.blocks)).toContain("Try again with /fleet login workspace.");
    expect(shown(en.view)).toContain("Workspace account");
  });

  it("a refusal stored before codes keeps its words", async () => {
    const old = await renderTask(
      linkTask({ linked: false, username: "dana", reason: "Old words." }, "ro"),
      context,
    );
    expect(old.message.text).toBe(":x: Old words.");
  });
});

describe("the installer's welcome", () => {
  it("in the deployment's default language", () => {
    const en = installWelcomeMessage({ teamName: "Firma", language: "en" });
    expect(en.text).toBe(
      ":wave: fleetbot is installed in *Firma*. First, set the fleet account your workspace uses: type `/fleet login workspace` (you, or a workspace admin, can do it).",
    );
    const ro = installWelcomeMessage({ language: "ro" });
    expect(ro.text).toContain("fleetbot este instalat. Mai întâi, setează contul platformei GPS");
    expect(shown(ro.blocks)).toContain("`/fleet ajutor`");
  });
});
