import { describe, expect, it } from "vitest";
import { exampleIn } from "../../src/commands/examples.js";
import {
  type AlertSubscribeOptions,
  alertChannelChange,
  alertOptions,
  type FleetGrammarContext,
  parseCommandLine,
  parseFleetCommand,
} from "../../src/commands/index.js";
import { grammarErrorMessage } from "../../src/commands/views/grammarError.js";
import { msg } from "./problemText.js";

/** `/fleet alerts`: its subcommands, channel, codes and `subscribe`'s options, read by the one grammar. */

const ctx: FleetGrammarContext = { timeZone: "Europe/Bucharest", now: new Date("2026-11-22T10:00:00Z") };
const KNOWN = new Map([
  ["general", "C0GENERAL1"],
  ["ops", "G0OPS12345"],
]);
const parse = (text: string, channelIds?: ReadonlyMap<string, string>) =>
  parseFleetCommand(text, channelIds ? { ...ctx, channelIds } : ctx);

function subscribed(text: string, channelIds?: ReadonlyMap<string, string>) {
  const r = parse(text, channelIds);
  if (!r.ok) throw new Error(`${text}: ${msg(r)}`);
  if (r.kind !== "alerts-subscribe") throw new Error(`${text}: ${r.kind}`);
  return r;
}

function refused(text: string, channelIds?: ReadonlyMap<string, string>) {
  const r = parse(text, channelIds);
  if (r.ok) throw new Error(`${text} parsed`);
  // Every error's example works, in English words and in Romanian ones.
  expect(parseCommandLine(r.example, ctx).result.ok, r.example).toBe(true);
  expect(parseCommandLine(exampleIn(r.example, "ro"), ctx).result.ok, r.example).toBe(true);
  return r;
}

describe("/fleet alerts subscribe: its options", () => {
  it.each<[string, AlertSubscribeOptions, string[]]>([
    ["alerts subscribe", {}, []],
    ["alerts subscribe all lang=ro", { language: "ro" }, []],
    [
      "alerts subscribe Error min=15 exclude=OldData vehicles=B-123-ABC",
      { minDurationMinutes: 15, exclude: ["OldData"], vehicles: ["B-123-ABC"] },
      ["Error"],
    ],
    ["alerts subscribe min = 0 stale = 0", { minDurationMinutes: 0, staleMinutes: 0 }, []],
    [
      "alerts subscribe MIN=1440 STALE=360 Lang=RO olddata",
      { minDurationMinutes: 1440, staleMinutes: 360, language: "ro" },
      ["OldData"],
    ],
    ["alerts subscribe lang=en Error", { language: "en" }, ["Error"]],
    [
      "alerts subscribe exclude=OldData,NotInRomania vehicles=B-1-ABC,CJ-07-XYZ",
      { exclude: ["OldData", "NotInRomania"], vehicles: ["B-1-ABC", "CJ-07-XYZ"] },
      [],
    ],
    // The store knows which codes and kinds it takes (its refusal names them): the grammar passes them on.
    ["alerts subscribe exclude=Bogus", { exclude: ["Bogus"] }, []],
    ["alerts subscribe exclude=,", { exclude: [] }, []],
    // The last of an option given twice counts.
    ["alerts subscribe min=5 min=10", { minDurationMinutes: 10 }, []],
  ])("%j", (text, options, codes) => {
    const r = subscribed(text);
    expect(r.options).toEqual(options);
    expect(r.codes).toEqual(codes);
    expect(r.channel).toBeUndefined();
  });

  it("reads them anywhere after `subscribe`, around the channel and the codes", () => {
    const r = subscribed("alerts subscribe vehicles=B-123-ABC <#C0123ABC|ops> OldData min=10 Error");
    expect(r.channel).toEqual({ id: "C0123ABC", name: "ops" });
    expect(r.codes).toEqual(["OldData", "Error"]);
    expect(r.options).toEqual({ vehicles: ["B-123-ABC"], minDurationMinutes: 10 });
  });

  it("takes them only after `subscribe`", () => {
    expect(msg(refused("alerts unsubscribe min=5"))).toContain("takes only a channel");
    expect(msg(refused("alerts list lang=ro"))).toContain("takes nothing after it");
  });

  it("gives the text without them, as the grammar reads it", () => {
    expect(alertOptions("alerts subscribe Error min=15 <#C0123ABC|ops> lang=ro")).toEqual({
      text: "alerts subscribe Error <#C0123ABC|ops>",
      options: { minDurationMinutes: 15, language: "ro" },
    });
    expect(alertOptions("alerts list")).toEqual({ text: "alerts list" });
  });
});

describe("/fleet alerts subscribe: an option that cannot be read", () => {
  const MIN_EN = (given: string) => `\`${given}\` must be whole minutes from 0 to 1,440.`;
  const MIN_RO = (given: string) =>
    `\`${given}\` trebuie să fie un număr întreg de minute, de la 0 la 1.440.`;
  const STALE_EN = (given: string) =>
    `\`${given}\` must be whole minutes from 0 (off) to 360, for example \`stale=45\`.`;
  const STALE_RO = (given: string) =>
    `\`${given}\` trebuie să fie un număr întreg de minute, de la 0 (oprit) la 360, de exemplu \`stale=45\`.`;
  const LANG_EN = (given: string) =>
    `\`${given}\` is not a language fleetbot speaks: use \`lang=ro\` (Romanian) or \`lang=en\` (English), for example \`/fleet alerts subscribe Error OldData lang=ro\`.`;
  const LANG_RO = (given: string) =>
    `\`${given}\` nu este o limbă pe care o vorbește fleetbot: folosește \`lang=ro\` (română) sau \`lang=en\` (engleză), de exemplu \`/fleet alerts subscribe Error OldData lang=ro\`.`;

  it.each<[string, "min" | "stale" | "lang", string, string, string]>([
    ["alerts subscribe Error min=abc", "min", "abc", MIN_EN("min=abc"), MIN_RO("min=abc")],
    ["alerts subscribe min=1441", "min", "1441", MIN_EN("min=1441"), MIN_RO("min=1441")],
    ["alerts subscribe min=-1", "min", "-1", MIN_EN("min=-1"), MIN_RO("min=-1")],
    ["alerts subscribe min=7.5", "min", "7.5", MIN_EN("min=7.5"), MIN_RO("min=7.5")],
    ["alerts subscribe min = 7,5", "min", "7,5", MIN_EN("min=7,5"), MIN_RO("min=7,5")],
    ["alerts subscribe stale=361", "stale", "361", STALE_EN("stale=361"), STALE_RO("stale=361")],
    ["alerts subscribe Error stale=abc", "stale", "abc", STALE_EN("stale=abc"), STALE_RO("stale=abc")],
    ["alerts subscribe lang=de", "lang", "de", LANG_EN("lang=de"), LANG_RO("lang=de")],
    ["alerts subscribe lang=romana", "lang", "romana", LANG_EN("lang=romana"), LANG_RO("lang=romana")],
    // Before anything else of the command: a wrong code, a typed channel, two channels.
    ["alerts subscribe banana min=abc", "min", "abc", MIN_EN("min=abc"), MIN_RO("min=abc")],
    ["alerts subscribe #nope stale=x", "stale", "x", STALE_EN("stale=x"), STALE_RO("stale=x")],
    [
      "alerts subscribe <#C0123ABC|a> <#C0456DEF|b> lang=fr",
      "lang",
      "fr",
      LANG_EN("lang=fr"),
      LANG_RO("lang=fr"),
    ],
    // Of two, the last is named.
    ["alerts subscribe min=abc stale=999", "stale", "999", STALE_EN("stale=999"), STALE_RO("stale=999")],
  ])("%j", (text, option, value, english, romanian) => {
    const r = refused(text);
    expect(r.problem).toEqual({ code: "alertOption", option, value });
    expect(msg(r)).toBe(english);
    const en = grammarErrorMessage(r, "help", "en");
    const ro = grammarErrorMessage(r, "ajutor", "ro");
    expect(en.text).toBe(`:warning: ${english}`);
    expect(ro.text).toBe(`:warning: ${romanian}`);
    // `min=` has its example beneath; `stale=` and `lang=` name theirs in the sentence.
    const said = (m: unknown) => JSON.stringify(m);
    const beneath = option === "min";
    expect(
      said(en).includes("Example: /fleet alerts subscribe Error OldData min=15 exclude=NotInRomania"),
    ).toBe(beneath);
    expect(
      said(ro).includes("Exemplu: /fleet alerte abonează Error OldData min=15 exclude=NotInRomania"),
    ).toBe(beneath);
    expect(said(en)).not.toContain("Try:");
  });

  it("an example that names the option, and parses into a subscription", () => {
    for (const [text, option] of [
      ["alerts subscribe min=x", "min="],
      ["alerts subscribe stale=x", "stale="],
      ["alerts subscribe lang=x", "lang="],
    ] as const) {
      const { example } = refused(text);
      expect(example).toContain(option);
      const again = parseCommandLine(example, ctx).result;
      expect(again.ok && again.kind).toBe("alerts-subscribe");
    }
  });
});

describe("/fleet alerts: channels typed by name", () => {
  it.each<[string, string[] | undefined]>([
    ["alerts subscribe #general Error", ["general"]],
    ["alerts unsubscribe #Ops", ["ops"]],
    ["ALERTS Subscribe #a #b #a", ["a", "b"]],
    // A slip of `alerts` is answered from the same line: its channel is looked up too.
    ["alert subscribe #general", ["general"]],
    ["alerts subscribe <#C0123ABC|general>", []],
    // A comma list is not looked up (the grammar asks to pick the channel), nor an option's value.
    ["alerts subscribe #general,#ops", []],
    ["alerts subscribe vehicles= #12", []],
    // An option that cannot be read is the answer: nothing to look up.
    ["alerts subscribe #general min=abc", []],
    ["alerts list", undefined],
    ["alerts", undefined],
    ["alerts frobnicate #general", undefined],
    ["stops #12", undefined],
    ["help alerts subscribe", undefined],
  ])("%j changes a channel's alerts, naming %j", (text, typedChannels) => {
    expect(alertChannelChange(text)).toEqual(typedChannels === undefined ? undefined : { typedChannels });
  });

  it("a name Slack knows is that channel", () => {
    expect(subscribed("alerts subscribe #General Error min=10", KNOWN)).toMatchObject({
      channel: { id: "C0GENERAL1", name: "general" },
      codes: ["Error"],
      options: { minDurationMinutes: 10 },
    });
    expect(parse("alerts unsubscribe #ops", KNOWN)).toEqual({
      ok: true,
      kind: "alerts-unsubscribe",
      channel: { id: "G0OPS12345", name: "ops" },
    });
  });

  it.each([
    ["alerts subscribe #nope Error", "`#nope`"],
    ["alerts subscribe #general,#ops", "`#general`"],
    ["alerts unsubscribe #nope", "`#nope`"],
  ])("%j: a name not found is refused, with how to pick the channel", (text, given) => {
    const r = refused(text, KNOWN);
    expect(r.problem.code).toBe("notAChannel");
    expect(msg(r)).toContain(given);
    expect(msg(r)).toContain("pick the channel from the list");
  });

  it("two channels, one typed and one picked, are one too many", () => {
    expect(refused("alerts subscribe #general <#C0456DEF|b>", KNOWN).problem.code).toBe("oneChannel");
  });
});
