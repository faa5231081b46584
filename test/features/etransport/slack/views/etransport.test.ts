import type { ActionsBlock, Button, KnownBlock, SectionBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import { markOf } from "../../../../../src/features/alerts/slack/views/incidentText.js";
import { transportActionResultMessage } from "../../../../../src/features/etransport/slack/views/actionResult.js";
import {
  parseTransportButtonValue,
  parseTransportListNavValue,
} from "../../../../../src/features/etransport/slack/views/buttonValues.js";
import { transportCard } from "../../../../../src/features/etransport/slack/views/card.js";
import { TRANSPORT_LIST_PAGE_SIZE } from "../../../../../src/features/etransport/slack/views/cardOptions.js";
import { transportListMessage } from "../../../../../src/features/etransport/slack/views/list.js";
import { removeConfirmationMessage } from "../../../../../src/features/etransport/slack/views/removal.js";
import { formatUit } from "../../../../../src/features/etransport/slack/views/transportText.js";
import type { TransportView } from "../../../../../src/features/etransport/types.js";
import type { TransportActionResult } from "../../../../../src/platform/fleet/schemas.js";
import { ACTIONS } from "../../../../../src/platform/slack/actionIds.js";
import { userText } from "../../../../../src/platform/slack/views/text.js";
import { totalText, validateMessagePayload } from "../../../../../src/sandbox/fakeSlack/limits.js";
import { NOW, transport, worstTransport } from "./etransportFixtures.js";

const buttonsOf = (blocks: KnownBlock[]): Button[] =>
  blocks.filter((b): b is ActionsBlock => b.type === "actions").flatMap((b) => b.elements as Button[]);
const textOf = (blocks: KnownBlock[]): string => JSON.stringify(blocks);

function expectValid(message: { text: string; blocks: KnownBlock[] }): void {
  expect(validateMessagePayload(message)).toEqual([]);
  expect(message.blocks.length).toBeLessThanOrEqual(50);
  expect(totalText(message.blocks)).toBeLessThanOrEqual(11_000);
}

describe("text helpers", () => {
  it("groups a UIT by four", () => {
    expect(formatUit("Y45R577UN544GY4S")).toBe("Y45R-577U-N544-GY4S");
    expect(formatUit("SHORT")).toBe("SHORT");
  });
  it("escapes and cuts without splitting entities", () => {
    expect(userText("a<b>&c", 100)).toBe("a&lt;b&gt;&amp;c");
    const cutText = userText("<".repeat(10), 12);
    expect(cutText).toBe("&lt;&lt;…");
    expect(cutText.length).toBeLessThanOrEqual(12);
  });
});

describe("transportCard", () => {
  it("shows the UIT grouped, vehicle, status, transmission, validity with date tokens", () => {
    const blocks = transportCard(transport(), { language: "en", timeZone: "Europe/Bucharest", nowMs: NOW });
    const text = textOf(blocks);
    expect(text).toContain("Y45R-577U-N544-GY4S");
    expect(text).toContain("B-12-ABC");
    expect(text).toContain("Truck 12");
    expect(text).toContain("In Progress");
    expect(text).toContain("Active — positions are being sent");
    // The one date form as the fallback, in the reader's zone (07:00 UTC is 09:00 in Bucharest).
    expect(text).toMatch(/<!date\^\d{10}\^\{date_short_pretty\} \{time\}\|Mon 10 Mar, 09:00>/);
    // Validity two days or more ahead in whole days, less in the one duration form.
    expect(text).toContain("ends in 4 days");
    const soon = transportCard(transport(), {
      language: "en",
      timeZone: "Europe/Bucharest",
      nowMs: NOW + 50 * 3600_000,
    });
    expect(textOf(soon)).toContain("ends in 46 h");
    const ro = transportCard(transport(), {
      language: "ro",
      timeZone: "Europe/Bucharest",
      nowMs: NOW - 25 * 24 * 3600_000,
    });
    expect(textOf(ro)).toContain("(începe peste 24 de zile)");
    expect(text).not.toContain("🔴");
    expectValid({ text: "t", blocks });
  });

  it("marks bad transmissions and change request errors, with meaning and advice", () => {
    const blocks = transportCard(
      transport({
        transmissionStatusCode: "OldData",
        changeRequestStatusCode: "ResponseError",
        changeRequestAuthorityMessage: "Plate not valid",
      }),
      { language: "en" },
    );
    const section = blocks[0] as SectionBlock;
    expect(section.text?.text).toMatch(/^🔴 /);
    // OldData may pass on its own: amber, as its alert; the failed change request makes the card red.
    expect(section.text?.text).toContain("🟠 OldData — data older than 6 hours");
    expect(section.text?.text).toContain("ANAF app");
    expect(section.text?.text).toContain("🔴 *ResponseError — completed with error*: “Plate not valid”");
  });

  it("warns (🟠) on an unknown transmission code", () => {
    const section = transportCard(transport({ transmissionStatusCode: "Weird" }), {
      language: "en",
    })[0] as SectionBlock;
    expect(section.text?.text).toContain("🟠 Weird");
  });

  it.each([
    ["an international", { startLocation: "Arad", endLocation: "Budapest, Hungary" }, "⚪"],
    ["a domestic", { startLocation: "Pitești", endLocation: "Brașov" }, "🔴"],
  ] as const)("marks NotInRomania on %s route as its alert does (%s)", (_route, places, mark) => {
    const t = transport({ transmissionStatusCode: "NotInRomania", ...places });
    const card = (transportCard(t, { language: "en" })[0] as SectionBlock).text?.text ?? "";
    expect(card.startsWith(`${mark} `)).toBe(true);
    expect(card).toContain(`${mark} NotInRomania — not on Romanian territory`);
    expect(markOf({ kind: "transmission", code: "NotInRomania", facts: t })).toBe(mark);
    const list = textOf(
      transportListMessage({
        language: "en",
        transports: [t],
        totalRecords: 1,
        pageIndex: 0,
        pageSize: 8,
        filterLabel: "all",
      }).blocks,
    );
    expect(list).toContain(`${mark} NotInRomania`);
    expect(list).not.toContain(mark === "⚪" ? "🔴" : "⚪");
  });

  it.each([
    [1, [ACTIONS.transportStart, ACTIONS.transportEdit, ACTIONS.transportRemove]],
    [2, [ACTIONS.transportPause, ACTIONS.transportEnd, ACTIONS.transportEdit, ACTIONS.transportRemove]],
    [3, [ACTIONS.transportRemove]],
    [4, [ACTIONS.transportRemove]],
    [5, [ACTIONS.transportEdit, ACTIONS.transportRemove]],
    [6, [ACTIONS.transportStart, ACTIONS.transportEnd, ACTIONS.transportEdit, ACTIONS.transportRemove]],
  ])("status %i has buttons %j", (statusId, actionIds) => {
    const t = transport({ statusId });
    const buttons = buttonsOf(transportCard(t, { language: "en" }));
    expect(buttons.map((b) => b.action_id)).toEqual(actionIds);
    for (const b of buttons) {
      expect(parseTransportButtonValue(b.value)).toEqual({ u: t.codeUit, id: t.uId });
      expect(b.value!.length).toBeLessThanOrEqual(2000);
    }
  });

  it("asks to confirm Remove (irreversible, naming UIT and vehicle) and End", () => {
    const buttons = buttonsOf(transportCard(transport({ statusId: 6 }), { language: "en" }));
    const remove = buttons.find((b) => b.action_id === ACTIONS.transportRemove)!;
    expect(remove.style).toBe("danger");
    expect(remove.confirm?.text.text).toContain("Y45R-577U-N544-GY4S");
    expect(remove.confirm?.text.text).toContain("B-12-ABC");
    expect(remove.confirm?.text.text).toContain("irreversible");
    const end = buttons.find((b) => b.action_id === ACTIONS.transportEnd)!;
    expect(end.confirm?.text.text).toContain("can no longer be modified");
  });

  it("keeps confirm dialogs within limits for the longest names", () => {
    const buttons = buttonsOf(transportCard(worstTransport(2), { language: "en" }));
    for (const b of buttons) {
      if (!b.confirm) continue;
      expect(b.confirm.title!.text.length).toBeLessThanOrEqual(100);
      expect(b.confirm.text.text.length).toBeLessThanOrEqual(300);
      expect(b.confirm.confirm!.text.length).toBeLessThanOrEqual(30);
      expect(b.confirm.deny!.text.length).toBeLessThanOrEqual(30);
    }
  });

  it("suffixes block ids with the UIT", () => {
    const blocks = transportCard(transport(), { language: "en" });
    for (const b of blocks) expect(b.block_id).toMatch(/Y45R577UN544GY4S$/);
  });

  it("escapes names from the service", () => {
    const blocks = transportCard(transport({ carrierName: "<@U123> & <!channel>" }), { language: "en" });
    const text = (blocks[0] as SectionBlock).text!.text;
    expect(text).toContain("&lt;@U123&gt; &amp; &lt;!channel&gt;");
    expect(text).not.toContain("<!channel>");
  });

  it("renders a worst-case transport at full detail within limits", () => {
    for (let i = 0; i < 6; i++)
      expectValid({ text: "t", blocks: transportCard(worstTransport(i), { language: "en" }) });
  });

  it("renders the same from stored JSON", () => {
    const t = transport();
    expect(transportCard(JSON.parse(JSON.stringify(t)), { language: "en" })).toEqual(
      transportCard(t, { language: "en" }),
    );
  });
});

describe("transportListMessage", () => {
  const page = (
    transports: TransportView[],
    extra: Partial<Parameters<typeof transportListMessage>[0]> = {},
  ) =>
    transportListMessage({
      language: "en",
      transports,
      totalRecords: 30,
      pageIndex: 1,
      pageSize: 8,
      filterLabel: "active",
      search: "B-12",
      ...extra,
    });

  it("a page of 8 worst-case transports is within every limit", () => {
    const transports = Array.from({ length: TRANSPORT_LIST_PAGE_SIZE }, (_, i) => worstTransport(i));
    const message = page(transports, { timeZone: "Europe/Bucharest", nowMs: NOW });
    expectValid(message);
    for (const t of transports) expect(textOf(message.blocks)).toContain(formatUit(t.codeUit));
  });

  it("keeps full detail when it fits", () => {
    const message = page([transport({ notes: "short note" })]);
    expect(textOf(message.blocks)).toContain("short note");
  });

  it("has a header with totals and Previous/Next carrying filter, search and page", () => {
    const message = page([transport()]);
    expect(message.blocks[0]).toMatchObject({
      type: "header",
      text: { text: "e-Transport · 30 transports in progress" },
    });
    expect(message.text).toContain("page 2 of 4");
    const nav = buttonsOf(message.blocks).filter((b) => b.action_id?.startsWith("transport.list"));
    expect(nav.map((b) => b.action_id)).toEqual([ACTIONS.transportListPrevious, ACTIONS.transportListNext]);
    expect(parseTransportListNavValue(nav[0]!.value)).toEqual({ f: "active", s: "B-12", p: 0 });
    expect(parseTransportListNavValue(nav[1]!.value)).toEqual({ f: "active", s: "B-12", p: 2 });
    expectValid(message);
  });

  it("has no Next on the last page and no Previous on the first", () => {
    const last = page([transport()], { pageIndex: 3 });
    expect(buttonsOf(last.blocks).map((b) => b.action_id)).not.toContain(ACTIONS.transportListNext);
    const first = page([transport()], { pageIndex: 0, totalRecords: 1 });
    expect(buttonsOf(first.blocks).some((b) => b.action_id?.startsWith("transport.list"))).toBe(false);
  });

  it("uses the filter word for navigation when given", () => {
    const message = page([transport()], { filter: "active", filterLabel: "in progress" });
    const next = buttonsOf(message.blocks).find((b) => b.action_id === ACTIONS.transportListNext)!;
    expect(parseTransportListNavValue(next.value)?.f).toBe("active");
  });

  it("gives unique block ids when the same UIT appears twice", () => {
    const message = page([transport(), transport()]);
    expectValid(message);
  });

  it("shows an empty state with an example command", () => {
    const message = transportListMessage({
      language: "en",
      transports: [],
      totalRecords: 0,
      pageIndex: 0,
      pageSize: 8,
      filterLabel: "paused",
      search: "<nothing>",
    });
    // The `text` fallback is mrkdwn too (notifications read it): the search is escaped there as well.
    expect(message.text).toBe("No paused transports matching “&lt;nothing&gt;”.");
    expect(textOf(message.blocks)).toContain("/etransport list all");
    expect(textOf(message.blocks)).toContain("&lt;nothing&gt;");
    expectValid(message);
  });

  it("caps a page at 8 cards and says so", () => {
    const transports = Array.from({ length: 12 }, (_, i) => worstTransport(i));
    const message = page(transports, { pageSize: 12, totalRecords: 12, pageIndex: 0 });
    expectValid(message);
    expect(textOf(message.blocks)).toContain("only the first 8");
  });
});

describe("transportActionResultMessage", () => {
  const results: TransportActionResult[] = [
    { codeUit: "Y45R577UN544GY4S", isSuccess: true, errors: [], reported: true },
    { codeUit: "AAAABBBBCCCCDDDD", isSuccess: false, errors: ["InvalidTransportState"], reported: true },
    { codeUit: "EEEEFFFFGGGGHHHH", isSuccess: false, errors: ["Platform <said> no & more"], reported: true },
  ];

  it("lists ✅/❌ per UIT with the service's text and the meaning of known codes", () => {
    const message = transportActionResultMessage("start", results, undefined, {
      language: "en",
      correlationId: "corr-1",
    });
    const text = textOf(message.blocks);
    expect(message.text).toBe("Started 1 of 3; 2 refused.");
    expect(text).toContain("✅ `Y45R-577U-N544-GY4S` started");
    expect(text).toContain("❌ `AAAA-BBBB-CCCC-DDDD` not started: InvalidTransportState — Transport");
    expect(text).toContain("Platform &lt;said&gt; no &amp; more");
    expect(text).toContain("corr-1");
    expectValid(message);
  });

  it("appends the updated cards", () => {
    const message = transportActionResultMessage("pause", results.slice(0, 1), [transport({ statusId: 6 })], {
      language: "en",
    });
    expect(buttonsOf(message.blocks).map((b) => b.action_id)).toContain(ACTIONS.transportStart);
    expectValid(message);
  });

  it("stays within limits for 300 outcomes and 8 worst-case cards", () => {
    const many: TransportActionResult[] = Array.from({ length: 300 }, (_, i) => ({
      codeUit: `Z${String(i).padStart(15, "0")}`,
      isSuccess: i % 3 === 0,
      errors: i % 3 === 0 ? [] : ["TransportFinalized", "x".repeat(300)],
      reported: true,
    }));
    const message = transportActionResultMessage(
      "end",
      many,
      Array.from({ length: 8 }, (_, i) => worstTransport(i)),
      { language: "en" },
    );
    expectValid(message);
    expect(textOf(message.blocks)).toMatch(/and \d+ more/);
  });

  it("says in plain words when the service did not answer UIT by UIT", () => {
    const wholesale = transportActionResultMessage(
      "start",
      [{ ...results[0]!, reported: false }],
      undefined,
      { language: "en" },
    );
    const text = textOf(wholesale.blocks);
    expect(text).toContain("the service accepted the request as a whole, without an answer for each UIT");
    expect(text).not.toContain("confirmed all at once");
    expect(
      textOf(transportActionResultMessage("start", [results[0]!], undefined, { language: "en" }).blocks),
    ).not.toContain("as a whole");
  });

  it("words all-succeeded and all-failed outcomes", () => {
    expect(transportActionResultMessage("remove", [results[0]!], undefined, { language: "en" }).text).toBe(
      "Removed the transport.",
    );
    expect(transportActionResultMessage("end", results.slice(1), undefined, { language: "en" }).text).toBe(
      "End refused for 2 of 2.",
    );
  });
});

describe("removeConfirmationMessage", () => {
  it("shows the card without its buttons and one danger button with a confirm", () => {
    const message = removeConfirmationMessage(worstTransport(1), { language: "en" });
    const buttons = buttonsOf(message.blocks);
    expect(buttons).toHaveLength(2);
    expect(buttons[0]).toMatchObject({ action_id: ACTIONS.transportRemove, style: "danger" });
    expect(buttons[0]!.confirm?.text.text).toContain("irreversible");
    expect(message.text).toContain("cannot be undone");
    expectValid(message);
  });
});
