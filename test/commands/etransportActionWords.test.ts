/**
 * The words dispatchers type for an e-Transport action run that action, and a word the bot does not
 * run is answered with the same action, never another (issue 33: `oprește` was answered with
 * `pornește`, the opposite).
 */
import { describe, expect, it } from "vitest";
import { type GrammarError, parseCommandLine, parseEtransportCommand } from "../../src/commands/index.js";
import { grammarErrorMessage } from "../../src/commands/views/grammarError.js";

const ctx = { timeZone: "Europe/Bucharest", now: new Date("2026-11-22T10:00:00Z") };
const UIT = "Y45R577UN544GY4S";
const etransport = (text: string) => parseEtransportCommand(text, ctx);

/** Comma-below, cedilla, no diacritics, upper case: how one word reaches the bot. */
function spellings(word: string): string[] {
  const cedilla = word.replaceAll("ș", "ş").replaceAll("ț", "ţ");
  const plain = word.normalize("NFD").replace(/\p{M}/gu, "");
  return [word, cedilla, plain, word.toUpperCase()];
}

/** The action a parse result runs, or the action its suggestion would run. */
function actionOf(text: string): string {
  const r = etransport(text);
  if (r.ok) return r.kind === "modal" ? r.form : r.kind;
  const suggestion = (r as GrammarError).suggestion;
  if (suggestion === undefined) return "(none)";
  const again = etransport(`${suggestion} ${UIT}`);
  expect(again.ok, `${text} → ${suggestion}`).toBe(true);
  return again.ok ? (again.kind === "modal" ? again.form : again.kind) : "(none)";
}

describe("more Romanian words for e-Transport actions (CONTRACT.md)", () => {
  it.each([
    ["reia", "start"],
    ["finalizează", "end"],
    ["încheie", "end"],
    ["modifică", "edit"],
    ["istoric", "history"],
  ])("%s runs %s, in every spelling, as the English word does", (word, english) => {
    for (const spelling of spellings(word))
      expect(etransport(`${spelling} ${UIT}`), spelling).toEqual(etransport(`${english} ${UIT}`));
  });

  it("adaugă opens the create form as nou does", () => {
    for (const spelling of spellings("adaugă"))
      expect(etransport(spelling), spelling).toEqual(etransport("nou"));
  });
});

describe("a stop word is never run, and never answered with start", () => {
  it.each([
    ["oprește", "finalizează"],
    ["opreste", "finalizeaza"],
    ["OPREȘTE", "finalizează"],
    ["opreşte", "finalizează"],
    ["stop", "end"],
  ])("%s → %s, with pause beside it", (typed, suggestion) => {
    const r = etransport(`${typed} ${UIT}`);
    expect(r.ok).toBe(false);
    const error = r as GrammarError;
    expect(error).toMatchObject({ suggestion, problem: { pauseToo: true } });
    expect(parseCommandLine(error.example, ctx).result).toMatchObject({ ok: true, kind: "end" });
  });

  it("the Romanian answer names finalizează and pauză, and not pornește", () => {
    const message = grammarErrorMessage(etransport(`oprește ${UIT}`) as GrammarError, undefined, "ro");
    const text = JSON.stringify(message);
    expect(text).toContain("/etransport finalizează");
    expect(text).toContain("/etransport pauză");
    expect(text).not.toContain("pornește");
  });
});

describe("no word for one action is answered with another", () => {
  const words: Record<string, string[]> = {
    start: ["start", "begin", "resume", "pornește", "reia"],
    pause: ["pause", "pauză"],
    end: ["end", "stop", "finish", "complete", "termină", "finalizează", "încheie", "oprește"],
    edit: ["edit", "update", "change", "editează", "modifică"],
    remove: ["remove", "delete", "del", "rm", "șterge"],
    history: ["history", "log", "audit", "trail", "istoric"],
  };
  it.each(Object.entries(words))("%s", (action, list) => {
    for (const word of list)
      for (const spelling of spellings(word)) expect(actionOf(`${spelling} ${UIT}`), spelling).toBe(action);
  });
});
