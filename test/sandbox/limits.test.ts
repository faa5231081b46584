/** Every limit of shared/slack/LIMITS.md: one payload just inside, one just over. */
import { describe, expect, it } from "vitest";
import {
  type LimitError,
  validateMessagePayload,
  validateOptionsResponse,
  validateView,
  validateViewErrors,
} from "../../src/sandbox/fakeSlack/index.js";

const s = (n: number, ch = "x") => ch.repeat(n);
const plain = (text: string) => ({ type: "plain_text", text });
const mrkdwn = (text: string) => ({ type: "mrkdwn", text });
const section = (text: string) => ({ type: "section", text: mrkdwn(text) });
const button = (over: Record<string, unknown> = {}, actionId = "go") => ({
  type: "button",
  action_id: actionId,
  text: plain("Go"),
  ...over,
});
const actions = (...elements: unknown[]) => ({ type: "actions", elements });
const option = (over: Record<string, unknown> = {}, value = "v") => ({
  text: plain("Option"),
  value,
  ...over,
});
const options = (n: number) => Array.from({ length: n }, (_, i) => option({}, `v${i}`));
const select = (over: Record<string, unknown>) => ({ type: "static_select", action_id: "pick", ...over });
const confirm = (over: Record<string, unknown> = {}) => ({
  title: plain("Sure?"),
  text: plain("This ends the transport."),
  confirm: plain("Yes"),
  deny: plain("No"),
  ...over,
});
const message = (...blocks: unknown[]) => ({ text: "fallback", blocks });
const modal = (over: Record<string, unknown> = {}) => ({
  type: "modal",
  title: plain("Report"),
  blocks: [section("hello")],
  ...over,
});
const input = (blockId = "in") => ({
  type: "input",
  block_id: blockId,
  label: plain("Plate"),
  element: { type: "plain_text_input", action_id: "plate" },
});

interface Row {
  limit: string;
  inside: unknown;
  over: unknown;
  error: LimitError;
  kind?: "message" | "view";
}

const rows: Row[] = [
  {
    limit: "blocks per message 50",
    inside: message(...Array.from({ length: 50 }, () => ({ type: "divider" }))),
    over: message(...Array.from({ length: 51 }, () => ({ type: "divider" }))),
    error: "invalid_blocks",
  },
  {
    limit: "blocks per modal 100",
    inside: modal({ blocks: Array.from({ length: 100 }, () => ({ type: "divider" })) }),
    over: modal({ blocks: Array.from({ length: 101 }, () => ({ type: "divider" })) }),
    error: "invalid_arguments",
    kind: "view",
  },
  {
    limit: "blocks per home tab 100",
    inside: { type: "home", blocks: Array.from({ length: 100 }, () => ({ type: "divider" })) },
    over: { type: "home", blocks: Array.from({ length: 101 }, () => ({ type: "divider" })) },
    error: "invalid_arguments",
    kind: "view",
  },
  {
    limit: "section text at most 3000",
    inside: message(section(s(3000))),
    over: message(section(s(3001))),
    error: "invalid_blocks",
  },
  {
    limit: "section text at least 1",
    inside: message(section("x")),
    over: message(section("")),
    error: "invalid_blocks",
  },
  {
    limit: "section fields at most 10",
    inside: message({ type: "section", fields: Array.from({ length: 10 }, () => mrkdwn("f")) }),
    over: message({ type: "section", fields: Array.from({ length: 11 }, () => mrkdwn("f")) }),
    error: "invalid_blocks",
  },
  {
    limit: "section field text at most 2000",
    inside: message({ type: "section", fields: [mrkdwn(s(2000))] }),
    over: message({ type: "section", fields: [mrkdwn(s(2001))] }),
    error: "invalid_blocks",
  },
  {
    limit: "header text at most 150",
    inside: message({ type: "header", text: plain(s(150)) }),
    over: message({ type: "header", text: plain(s(151)) }),
    error: "invalid_blocks",
  },
  {
    limit: "header text is plain_text",
    inside: message({ type: "header", text: plain("Fleet") }),
    over: message({ type: "header", text: mrkdwn("Fleet") }),
    error: "invalid_blocks",
  },
  {
    limit: "context elements at most 10",
    inside: message({ type: "context", elements: Array.from({ length: 10 }, () => mrkdwn("c")) }),
    over: message({ type: "context", elements: Array.from({ length: 11 }, () => mrkdwn("c")) }),
    error: "invalid_blocks",
  },
  {
    limit: "actions elements at most 25",
    inside: message(actions(...Array.from({ length: 25 }, (_, i) => button({}, `b${i}`)))),
    over: message(actions(...Array.from({ length: 26 }, (_, i) => button({}, `b${i}`)))),
    error: "invalid_blocks",
  },
  {
    limit: "block_id at most 255",
    inside: message({ type: "divider", block_id: s(255) }),
    over: message({ type: "divider", block_id: s(256) }),
    error: "invalid_blocks",
  },
  {
    limit: "block_id unique in a message",
    inside: message({ type: "divider", block_id: "a" }, { type: "divider", block_id: "b" }),
    over: message({ type: "divider", block_id: "a" }, { type: "divider", block_id: "a" }),
    error: "invalid_blocks",
  },
  {
    limit: "block_id unique in a view",
    inside: modal({ blocks: [input("a"), input("b")], submit: plain("Send") }),
    over: modal({ blocks: [input("a"), input("a")], submit: plain("Send") }),
    error: "invalid_arguments",
    kind: "view",
  },
  {
    limit: "action_id at most 255",
    inside: message(actions(button({}, s(255)))),
    over: message(actions(button({}, s(256)))),
    error: "invalid_blocks",
  },
  {
    limit: "action_id unique within its block",
    inside: message(actions(button({}, "same")), actions(button({}, "same"))),
    over: message(actions(button({}, "same"), button({}, "same"))),
    error: "invalid_blocks",
  },
  {
    limit: "button text at most 75",
    inside: message(actions(button({ text: plain(s(75)) }))),
    over: message(actions(button({ text: plain(s(76)) }))),
    error: "invalid_blocks",
  },
  {
    limit: "button text is plain_text",
    inside: message(actions(button({ text: plain("Go") }))),
    over: message(actions(button({ text: mrkdwn("Go") }))),
    error: "invalid_blocks",
  },
  {
    limit: "button value at most 2000",
    inside: message(actions(button({ value: s(2000) }))),
    over: message(actions(button({ value: s(2001) }))),
    error: "invalid_blocks",
  },
  {
    limit: "button url at most 3000",
    inside: message(actions(button({ url: `https://e.ro/${s(3000 - 13)}` }))),
    over: message(actions(button({ url: `https://e.ro/${s(3001 - 13)}` }))),
    error: "invalid_blocks",
  },
  {
    limit: "button style primary or danger",
    inside: message(actions(button({ style: "danger" }))),
    over: message(actions(button({ style: "secondary" }))),
    error: "invalid_blocks",
  },
  {
    limit: "static select at most 100 options",
    inside: message(actions(select({ options: options(100) }))),
    over: message(actions(select({ options: options(101) }))),
    error: "invalid_blocks",
  },
  {
    limit: "static select at most 100 option groups",
    inside: message(
      actions(
        select({
          option_groups: Array.from({ length: 100 }, () => ({ label: plain("g"), options: options(1) })),
        }),
      ),
    ),
    over: message(
      actions(
        select({
          option_groups: Array.from({ length: 101 }, () => ({ label: plain("g"), options: options(1) })),
        }),
      ),
    ),
    error: "invalid_blocks",
  },
  {
    limit: "multi static select at most 100 options",
    inside: message(actions({ ...select({ options: options(100) }), type: "multi_static_select" })),
    over: message(actions({ ...select({ options: options(101) }), type: "multi_static_select" })),
    error: "invalid_blocks",
  },
  {
    limit: "overflow at most 5 options",
    inside: message(actions({ type: "overflow", action_id: "more", options: options(5) })),
    over: message(actions({ type: "overflow", action_id: "more", options: options(6) })),
    error: "invalid_blocks",
  },
  {
    limit: "overflow at least 1 option",
    inside: message(actions({ type: "overflow", action_id: "more", options: options(1) })),
    over: message(actions({ type: "overflow", action_id: "more", options: [] })),
    error: "invalid_blocks",
  },
  {
    limit: "option text at most 75",
    inside: message(actions(select({ options: [option({ text: plain(s(75)) })] }))),
    over: message(actions(select({ options: [option({ text: plain(s(76)) })] }))),
    error: "invalid_blocks",
  },
  {
    limit: "option value at most 75",
    inside: message(actions(select({ options: [option({ value: s(75) })] }))),
    over: message(actions(select({ options: [option({ value: s(76) })] }))),
    error: "invalid_blocks",
  },
  {
    limit: "option description at most 75",
    inside: message(actions(select({ options: [option({ description: plain(s(75)) })] }))),
    over: message(actions(select({ options: [option({ description: plain(s(76)) })] }))),
    error: "invalid_blocks",
  },
  {
    limit: "confirm title at most 100",
    inside: message(actions(button({ confirm: confirm({ title: plain(s(100)) }) }))),
    over: message(actions(button({ confirm: confirm({ title: plain(s(101)) }) }))),
    error: "invalid_blocks",
  },
  {
    limit: "confirm text at most 300",
    inside: message(actions(button({ confirm: confirm({ text: mrkdwn(s(300)) }) }))),
    over: message(actions(button({ confirm: confirm({ text: mrkdwn(s(301)) }) }))),
    error: "invalid_blocks",
  },
  {
    limit: "confirm button at most 30",
    inside: message(actions(button({ confirm: confirm({ confirm: plain(s(30)) }) }))),
    over: message(actions(button({ confirm: confirm({ confirm: plain(s(31)) }) }))),
    error: "invalid_blocks",
  },
  {
    limit: "deny button at most 30",
    inside: message(actions(button({ confirm: confirm({ deny: plain(s(30)) }) }))),
    over: message(actions(button({ confirm: confirm({ deny: plain(s(31)) }) }))),
    error: "invalid_blocks",
  },
  {
    limit: "total block text of a message at most 12,000",
    inside: message(section(s(3000)), section(s(3000)), section(s(3000)), section(s(3000))),
    over: message(section(s(3000)), section(s(3000)), section(s(3000)), section(s(3000)), section("x")),
    error: "msg_blocks_too_long",
  },
  {
    limit: "message text at most 40,000",
    inside: { text: s(40_000) },
    over: { text: s(40_001) },
    error: "msg_too_long",
  },
  {
    limit: "known block types only",
    inside: message({ type: "divider" }),
    over: message({ type: "carousel" }),
    error: "invalid_blocks",
  },
  {
    limit: "known element types only",
    inside: message(actions({ type: "datepicker", action_id: "d" })),
    over: message(actions({ type: "slider", action_id: "d" })),
    error: "invalid_blocks",
  },
  {
    limit: "text objects are plain_text or mrkdwn",
    inside: message({ type: "section", text: { type: "mrkdwn", text: "x" } }),
    over: message({ type: "section", text: { type: "markdown", text: "x" } }),
    error: "invalid_blocks",
  },
  {
    limit: "checkboxes at most 10 options",
    inside: message(actions({ type: "checkboxes", action_id: "c", options: options(10) })),
    over: message(actions({ type: "checkboxes", action_id: "c", options: options(11) })),
    error: "invalid_blocks",
  },
  {
    limit: "modal title at most 24",
    inside: modal({ title: plain(s(24)) }),
    over: modal({ title: plain(s(25)) }),
    error: "invalid_arguments",
    kind: "view",
  },
  {
    limit: "modal title is plain_text",
    inside: modal({ title: plain("Report") }),
    over: modal({ title: mrkdwn("Report") }),
    error: "invalid_arguments",
    kind: "view",
  },
  {
    limit: "modal submit at most 24",
    inside: modal({ submit: plain(s(24)) }),
    over: modal({ submit: plain(s(25)) }),
    error: "invalid_arguments",
    kind: "view",
  },
  {
    limit: "modal close at most 24",
    inside: modal({ close: plain(s(24)) }),
    over: modal({ close: plain(s(25)) }),
    error: "invalid_arguments",
    kind: "view",
  },
  {
    limit: "submit required with an input block",
    inside: modal({ blocks: [input()], submit: plain("Send") }),
    over: modal({ blocks: [input()] }),
    error: "invalid_arguments",
    kind: "view",
  },
  {
    limit: "private_metadata at most 3000",
    inside: modal({ private_metadata: s(3000) }),
    over: modal({ private_metadata: s(3001) }),
    error: "invalid_arguments",
    kind: "view",
  },
  {
    limit: "callback_id at most 255",
    inside: modal({ callback_id: s(255) }),
    over: modal({ callback_id: s(256) }),
    error: "invalid_arguments",
    kind: "view",
  },
  {
    limit: "external_id at most 255",
    inside: modal({ external_id: s(255) }),
    over: modal({ external_id: s(256) }),
    error: "invalid_arguments",
    kind: "view",
  },
  {
    limit: "input element must be an input type",
    inside: modal({ blocks: [input()], submit: plain("Send") }),
    over: modal({ blocks: [{ ...input(), element: button() }], submit: plain("Send") }),
    error: "invalid_arguments",
    kind: "view",
  },
];

describe("Block Kit limit guard", () => {
  it.each(rows)("$limit", ({ inside, over, error, kind }) => {
    const validate = kind === "view" ? validateView : validateMessagePayload;
    expect(validate(inside as never)).toEqual([]);
    const problems = validate(over as never);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.map((p) => p.error)).toContain(error);
  });

  it("names the offending field with a JSON pointer, in Slack's message style", () => {
    const [problem] = validateMessagePayload(message(section("ok"), actions(button({ text: plain(s(76)) }))));
    expect(problem).toEqual({
      error: "invalid_blocks",
      reason: "must be less than 76 characters",
      pointer: "/blocks/1/elements/0/text/text",
    });
  });

  it("options responses and view errors are checked too", () => {
    expect(validateOptionsResponse({ options: options(100) })).toEqual([]);
    expect(validateOptionsResponse({ options: options(101) })).not.toEqual([]);
    expect(validateOptionsResponse({ options: [option({ text: plain(s(76)) })] })).not.toEqual([]);
    const view = modal({ blocks: [input("plate")], submit: plain("Send") });
    expect(validateViewErrors(view, { plate: "Unknown plate" })).toEqual([]);
    expect(validateViewErrors(view, { vehicle: "Unknown plate" })).toHaveLength(1);
  });
});
