import type { ActionsBlock, Button, InputBlock, KnownBlock, ModalView } from "@slack/types";
import { describe, expect, it } from "vitest";
import { transportActionResultMessage } from "../../../../../src/features/etransport/slack/views/actionResult.js";
import { auditHistoryMessage } from "../../../../../src/features/etransport/slack/views/auditHistory.js";
import { transportCard } from "../../../../../src/features/etransport/slack/views/card.js";
import { transportModal } from "../../../../../src/features/etransport/slack/views/formModal.js";
import { checkTransportModal } from "../../../../../src/features/etransport/slack/views/formSubmission.js";
import { transportFormWarningTexts } from "../../../../../src/features/etransport/slack/views/formWording.js";
import { transportListMessage } from "../../../../../src/features/etransport/slack/views/list.js";
import {
  removeCancelledMessage,
  removeConfirmationMessage,
} from "../../../../../src/features/etransport/slack/views/removal.js";
import { actionUnderWayNote } from "../../../../../src/features/etransport/slack/views/underWay.js";
import { messages } from "../../../../../src/i18n/catalogue.js";
import type { Language } from "../../../../../src/i18n/language.js";
import type { TransportActionResult } from "../../../../../src/platform/fleet/schemas.js";
import { INPUTS } from "../../../../../src/platform/slack/actionIds.js";
import type { AuditEntry } from "../../../../../src/platform/store/contract/index.js";
import {
  totalText,
  validateMessagePayload,
  validateView,
} from "../../../../../src/sandbox/fakeSlack/limits.js";
import { NOW, transport, worstTransport } from "./etransportFixtures.js";

/**
 * Every e-Transport view in both languages: the Romanian words a dispatcher reads (ANAF's and
 * TrackGPS's terms), the one date form (numeric Slack tokens in Romanian), Romanian plurals,
 * and Slack's limits with the longer Romanian text. English stays as it was.
 */

const ZONE = "Europe/Bucharest";
const textOf = (blocks: readonly KnownBlock[]): string => JSON.stringify(blocks);
const buttonsOf = (blocks: readonly KnownBlock[]): Button[] =>
  blocks.filter((b): b is ActionsBlock => b.type === "actions").flatMap((b) => b.elements as Button[]);
const inputs = (view: ModalView): InputBlock[] =>
  (view.blocks as KnownBlock[]).filter((b): b is InputBlock => b.type === "input");

function expectValid(message: { text: string; blocks: KnownBlock[] }): void {
  expect(validateMessagePayload(message)).toEqual([]);
  expect(message.blocks.length).toBeLessThanOrEqual(50);
  expect(totalText(message.blocks)).toBeLessThanOrEqual(11_000);
}

describe("transport card in Romanian", () => {
  it("names status, transmission, validity and facts in Romanian, with numeric Slack dates", () => {
    const blocks = transportCard(transport({ trailer1Code: "B99TRL", trailer2Code: "CJ12XYZ" }), {
      timeZone: ZONE,
      nowMs: NOW,
      language: "ro",
    });
    const text = textOf(blocks);
    expect(text).toContain("*În desfășurare*");
    expect(text).toContain("*Transmisie:* Active — pozițiile se transmit");
    expect(text).toContain("*Valabilitate UIT:*");
    expect(text).toContain("(expiră peste 4 zile)");
    // Slack has no Romanian: numeric tokens, and the fallback in the one Romanian date form.
    expect(text).toMatch(/<!date\^\d{10}\^\{date_num\} \{time\}\|luni, 10 mar\., 09:00>/);
    expect(text).not.toContain("date_short_pretty");
    expect(text).toContain("Ultima transmisie către ANAF");
    expect(text).toContain("ultima poziție GPS");
    expect(text).toContain("remorci B99TRL, CJ12XYZ");
    expect(text).not.toMatch(/Transmission|UIT validity|last GPS|trailers/);
    expectValid({ text: "t", blocks });
  });

  it("says one trailer in the singular", () => {
    const text = textOf(transportCard(transport({ trailer1Code: "B99TRL" }), { language: "ro" }));
    expect(text).toContain("remorcă B99TRL");
  });

  it("gives the meaning and the advice of a bad transmission, and the change request, in Romanian", () => {
    const text = textOf(
      transportCard(
        transport({
          transmissionStatusCode: "OldData",
          changeRequestStatusCode: "ResponseError",
          changeRequestAuthorityMessage: "Plate not valid",
        }),
        { language: "ro" },
      ),
    );
    expect(text).toContain("🟠 OldData — date mai vechi de 6 ore");
    expect(text).toContain("aplicația ANAF");
    expect(text).toContain("*Cerere de modificare a vehiculului:* 🔴 *ResponseError — finalizată cu eroare*");
    expect(
      textOf(transportCard(transport({ transmissionStatusCode: "Weird" }), { language: "ro" })),
    ).toContain("stare a transmisiei necunoscută „Weird”");
  });

  it("labels the buttons and their confirmations in Romanian", () => {
    const buttons = buttonsOf(transportCard(transport({ statusId: 6 }), { language: "ro" }));
    expect(buttons.map((b) => b.text.text)).toEqual(["Pornește", "Finalizează", "Editează", "Șterge"]);
    const remove = buttons.find((b) => b.text.text === "Șterge");
    expect(remove?.confirm?.title?.text).toBe("Ștergi transportul?");
    expect(remove?.confirm?.text.text).toContain("Y45R-577U-N544-GY4S");
    expect(remove?.confirm?.text.text).toContain("definitivă");
    expect(remove?.confirm?.deny?.text).toBe("Anulează");
    const end = buttons.find((b) => b.text.text === "Finalizează");
    expect(end?.confirm?.confirm?.text).toBe("Finalizează transportul");
  });

  it("keeps a worst-case Romanian card within Slack's limits", () => {
    for (let i = 0; i < 6; i++) {
      const blocks = transportCard(worstTransport(i), { timeZone: ZONE, nowMs: NOW, language: "ro" });
      expectValid({ text: "t", blocks });
      for (const b of buttonsOf(blocks)) {
        expect(b.text.text.length).toBeLessThanOrEqual(75);
        expect(b.confirm?.title?.text.length ?? 0).toBeLessThanOrEqual(100);
        expect(b.confirm?.text.text.length ?? 0).toBeLessThanOrEqual(300);
      }
    }
  });

  it("keeps the English card as it was", () => {
    const text = textOf(
      transportCard(transport({ trailer1Code: "B99TRL" }), { language: "en", timeZone: ZONE, nowMs: NOW }),
    );
    expect(text).toContain("*Transmission:* Active — positions are being sent");
    expect(text).toContain("trailer B99TRL");
    expect(text).toContain("{date_short_pretty} {time}|Mon 10 Mar, 09:00>");
  });
});

describe("transport list in Romanian", () => {
  const list = (language: Language, filterLabel: string, totalRecords: number, search?: string) =>
    transportListMessage({
      transports: totalRecords === 0 ? [] : [transport()],
      totalRecords,
      pageIndex: 0,
      pageSize: 8,
      filterLabel,
      timeZone: ZONE,
      language,
      ...(search ? { search } : {}),
    });

  it.each([
    ["default", 1, "1 transport deschis (în așteptare, în desfășurare sau în pauză)"],
    ["default", 3, "3 transporturi deschise (în așteptare, în desfășurare sau în pauză)"],
    ["active", 20, "20 de transporturi în desfășurare"],
    ["completed", 2, "2 transporturi finalizate"],
    ["completed", 1, "1 transport finalizat"],
    ["paused completed", 101, "101 transporturi în pauză sau finalizate"],
    ["all", 1234, "1.234 de transporturi în orice stare"],
  ])("%s, %i → %s", (filter, total, what) => {
    const message = list("ro", filter, total);
    expect(message.blocks[0]).toMatchObject({ type: "header", text: { text: `e-Transport · ${what}` } });
    expect(message.text).toContain(what);
  });

  it("counts the page and turns it in Romanian", () => {
    const message = list("ro", "active", 20);
    const text = textOf(message.blocks);
    expect(text).toContain("1–1 din 20 · pagina 1 din 3");
    expect(buttonsOf(message.blocks).map((b) => b.text.text)).toEqual([
      "Pauză",
      "Finalizează",
      "Editează",
      "Șterge",
      "Următoarea ▶",
    ]);
    expect(message.text).toBe("e-Transport · 20 de transporturi în desfășurare (pagina 1 din 3)");
    // The cards of a Romanian list are Romanian too.
    expect(text).toContain("*În desfășurare*");
    expectValid(message);
  });

  it("says an empty list in Romanian, with the search", () => {
    const message = list("ro", "paused", 0, "<nimic>");
    expect(message.text).toBe("Niciun transport în pauză care să conțină „&lt;nimic&gt;”.");
    expect(textOf(message.blocks)).toContain("/etransport nou");
  });

  it("keeps the English list as it was", () => {
    expect(list("en", "active", 20).text).toBe("e-Transport · 20 transports in progress (page 1 of 3)");
    expect(list("en", "paused", 0).text).toBe("No paused transports.");
  });
});

describe("action results in Romanian", () => {
  const results: TransportActionResult[] = [
    { codeUit: "Y45R577UN544GY4S", isSuccess: true, errors: [], reported: true },
    { codeUit: "AAAABBBBCCCCDDDD", isSuccess: false, errors: ["InvalidTransportState"], reported: true },
    { codeUit: "EEEEFFFFGGGGHHHH", isSuccess: false, errors: [], reported: true },
  ];

  it("counts what happened and explains the refusals in Romanian", () => {
    const message = transportActionResultMessage("start", results, [transport()], {
      correlationId: "corr-1",
      timeZone: ZONE,
      language: "ro",
    });
    const text = textOf(message.blocks);
    expect(message.text).toBe("1 din 3 pornit; 2 refuzate.");
    expect(text).toContain("✅ `Y45R-577U-N544-GY4S` pornit");
    expect(text).toContain(
      "❌ `AAAA-BBBB-CCCC-DDDD` nu a fost pornit: InvalidTransportState — Transportul AAAA-BBBB-CCCC-DDDD",
    );
    expect(text).toContain("fără niciun motiv");
    expect(text).toContain("Pentru asistență: ID de corelare `corr-1`");
    expect(text).toContain("*În desfășurare*");
    expectValid(message);
  });

  it.each([
    ["start", 1, 1, "Transportul a fost pornit."],
    ["pause", 2, 2, "Toate cele 2 transporturi au fost puse în pauză."],
    ["end", 20, 20, "Toate cele 20 de transporturi au fost finalizate."],
    ["remove", 2, 0, "Ștergere refuzată pentru 2 din 2."],
    ["end", 0, 0, "Finalizare: niciun transport indicat."],
  ] as const)("%s, %i of which %i done → %s", (action, total, done, headline) => {
    const some: TransportActionResult[] = Array.from({ length: total }, (_, i) => ({
      codeUit: `A${String(i).padStart(15, "0")}`,
      isSuccess: i < done,
      errors: [],
      reported: true,
    }));
    expect(transportActionResultMessage(action, some, undefined, { language: "ro" }).text).toBe(headline);
  });

  it("says the card's action is under way in Romanian", () => {
    expect(actionUnderWayNote("start", "Y45R577UN544GY4S", "următorul la rând", "ro").text).toBe(
      ":hourglass_flowing_sand: Se pornește… UIT Y45R-577U-N544-GY4S: următorul la rând",
    );
  });
});

describe("remove confirmation in Romanian", () => {
  it("asks in Romanian, with a danger button and a way out", () => {
    const message = removeConfirmationMessage(transport(), { timeZone: ZONE, language: "ro" });
    expect(message.text).toBe(
      "Ștergi transportul cu codul UIT Y45R-577U-N544-GY4S? Ștergerea nu poate fi anulată.",
    );
    expect(textOf(message.blocks)).toContain("*Ștergi acest transport?*");
    expect(buttonsOf(message.blocks).map((b) => b.text.text)).toEqual(["Șterge transportul", "Anulează"]);
    expectValid(message);
    expect(removeCancelledMessage("Y45R577UN544GY4S", "ro").text).toBe(
      "Nu a fost șters: transportul cu codul UIT Y45R-577U-N544-GY4S rămâne cum era.",
    );
  });
});

describe("audit history in Romanian", () => {
  const AT = Date.UTC(2026, 10, 3, 8, 0);
  const entries = (n: number, fields: Partial<AuditEntry> = {}): AuditEntry[] =>
    Array.from({ length: n }, (_, i) => ({
      id: `t${i}`,
      at: AT - i * 60_000,
      account: "demo",
      slackUser: "U0DISPATCH",
      uit: "AB12CD34EF56GH78",
      action: "start" as const,
      outcome: "success" as const,
      ...fields,
    }));
  const render = (list: AuditEntry[], total: number, language: Language) =>
    auditHistoryMessage({
      uit: "AB12CD34EF56GH78",
      account: "demo",
      history: { entries: list, total },
      timeZone: ZONE,
      language,
    });

  it("words each entry, counts with Romanian plurals and dates with numeric tokens", () => {
    const message = render(
      [
        ...entries(1),
        ...entries(1, { id: "f", action: "end", outcome: "failure", code: "X1", message: "nu" }),
      ],
      3,
      "ro",
    );
    const text = textOf(message.blocks);
    expect(message.text).toBe("Istoricul pentru AB12-CD34-EF56-GH78: 3 modificări înregistrate.");
    expect(text).toContain("*Pornit*");
    expect(text).toContain("*Finalizare*");
    expect(text).toContain(":x: refuzat de platforma GPS `X1`: nu");
    expect(text).toContain("{date_num} {time}|marți, 3 nov., 10:00");
    expect(text).toContain("1 modificare mai veche nu se vede");
    expect(render(entries(1), 20, "ro").text).toContain("20 de modificări înregistrate");
    expect(render(entries(1), 1, "ro").text).toContain("1 modificare înregistrată");
  });

  it("keeps English as it was, in the one date form", () => {
    const message = render(entries(1), 2, "en");
    expect(message.text).toBe("History of AB12-CD34-EF56-GH78: 2 recorded changes.");
    expect(textOf(message.blocks)).toContain("{date_short_pretty} {time}|Tue 3 Nov, 10:00");
    expect(textOf(message.blocks)).toContain("1 older change is not shown");
  });

  it("words fleetbot's own NotConfirmed code (stored as a code, never words) in the reader's language", () => {
    const notConfirmed = entries(1, { action: "remove", outcome: "failure", code: "NotConfirmed" });
    expect(textOf(render(notConfirmed, 1, "ro").blocks)).toContain(":x: neconfirmat de platforma GPS");
    expect(textOf(render(notConfirmed, 1, "en").blocks)).toContain(":x: not confirmed by the fleet service");
  });

  it("says an empty history in Romanian", () => {
    expect(render([], 0, "ro").text).toBe(
      "Nicio modificare a transportului `AB12-CD34-EF56-GH78` nu este înregistrată pentru contul platformei GPS `demo`.",
    );
  });
});

describe("the create / edit form in Romanian", () => {
  const vehicles = [{ vehicleUId: "v-1", plate: "B-12-ABC", name: "Camion 12" }];

  it("has a Romanian title, labels, hints and buttons within Slack's limits", () => {
    for (const mode of ["create", "edit"] as const) {
      const view = transportModal({
        mode,
        vehicles,
        ...(mode === "edit" ? { initial: transport() } : {}),
        userTimeZone: ZONE,
        language: "ro",
        privateMetadata: "",
      });
      expect(validateView(view)).toEqual([]);
      expect(view.title.text.length).toBeLessThanOrEqual(24);
      expect(view.submit?.text.length ?? 0).toBeLessThanOrEqual(24);
      expect(view.close?.text).toBe("Anulează");
      for (const input of inputs(view)) {
        expect(input.label.text.length).toBeLessThanOrEqual(2000);
        expect(input.hint?.text.length ?? 0).toBeLessThanOrEqual(2000);
        const placeholder = (input.element as { placeholder?: { text: string } }).placeholder;
        expect(placeholder?.text.length ?? 0).toBeLessThanOrEqual(150);
      }
      const labels = inputs(view).map((b) => b.label.text);
      expect(labels).toContain("Vehicul");
      expect(labels).toContain("CIF/CUI transportator (sau cod TVA UE)");
      expect(labels).toContain("Cod UIT valabil de la");
      expect(labels).toContain("Început transmisie GPS");
      expect(labels).toContain("Nr. înmatriculare remorcă 1");
      expect(labels).toContain("Observații");
      if (mode === "create") {
        expect(view.title.text).toBe("e-Transport nou");
        expect(view.submit?.text).toBe("Adaugă transportul");
        expect(labels).toContain("Cod UIT");
      } else {
        expect(view.title.text).toBe("Editează e-Transport");
        expect(textOf(view.blocks as KnownBlock[])).toContain("Codul UIT nu se poate schimba");
        expect(textOf(view.blocks as KnownBlock[])).toContain("În desfășurare");
      }
    }
  });

  it("says the field errors in Romanian: a UIT of the wrong length, a CIF whose check digit is wrong", () => {
    const checked = checkTransportModal(
      {
        vehicleUId: "v-1",
        uit: "Y45R-577U-N544",
        vat: "RO16341005",
        validityStart: NOW / 1000 + 3600,
        validityEnd: NOW / 1000 + 3600 + 86_400,
        transmissionStart: NOW / 1000,
        trailer1: "xyz",
        notes: "n".repeat(501),
      },
      { mode: "create", nowMs: NOW },
      { language: "ro", timeZone: ZONE },
    );
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors[INPUTS.transportUit.block]).toBe(
      "Un cod UIT are 16 litere și cifre; acesta are 12. Exemplu: Y45R-577U-N544-GY4S.",
    );
    expect(checked.errors[INPUTS.transportVat.block]).toBe(
      "RO16341005 nu este un CIF românesc valid: cifra de control este greșită. Exemplu: RO16341004.",
    );
    expect(checked.errors[INPUTS.transportStart.block]).toBe(
      "Începutul transmisiei trebuie să fie în perioada de valabilitate a codului UIT: cel mai devreme luni, 10 mar., 11:00.",
    );
    expect(checked.errors[INPUTS.transportTrailer1.block]).toContain(
      "„xyz” nu este un număr de înmatriculare",
    );
    expect(checked.errors[INPUTS.transportNotes.block]).toBe(
      "Observațiile au 501 caractere; cel mult 500. Scurtează textul.",
    );
    for (const message of Object.values(checked.errors)) expect(message.length).toBeLessThanOrEqual(2000);
  });

  it("says the same errors in English as before", () => {
    const checked = checkTransportModal(
      { vehicleUId: "v-1", uit: "Y45R-577U-N544", vat: "RO16341005" },
      { mode: "create", nowMs: NOW },
    );
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors[INPUTS.transportUit.block]).toBe(
      "A UIT has 16 letters and digits; this has 12. Example: Y45R-577U-N544-GY4S.",
    );
    expect(checked.errors[INPUTS.transportVat.block]).toContain("check digit is wrong");
    expect(checked.errors[INPUTS.transportValidityStart.block]).toBe(
      "Pick the start of the UIT validity, as issued with the UIT.",
    );
  });

  it("words the warnings in Romanian, with the one duration and date forms", () => {
    const texts = transportFormWarningTexts(
      [
        { warning: "overMaxSpan", spanMs: 16 * 86_400_000, maxDays: 15 },
        { warning: "farAhead", inMs: 4 * 86_400_000, startMs: NOW + 4 * 86_400_000, maxDays: 3 },
      ],
      "ro",
      ZONE,
      NOW,
    );
    expect(texts[0]).toBe(
      "Valabilitatea codului UIT durează 384 h: mai mult decât maximul legal de 15 zile. Verifică datele de pe codul UIT.",
    );
    expect(texts[1]).toContain("peste 96 h (vineri, 14 mar., 10:00)");
    expect(texts[1]).toContain("cel mult 3 zile înainte de transport");
    const view = transportModal({
      mode: "create",
      vehicles,
      userTimeZone: ZONE,
      language: "ro",
      warnings: [{ warning: "startInPast", startMs: NOW - 86_400_000 }],
      privateMetadata: "",
    });
    expect(textOf(view.blocks as KnownBlock[])).toContain("Verifică înainte de a salva");
    expect(textOf(view.blocks as KnownBlock[])).toContain("duminică, 9 mar., 10:00");
  });
});

describe("service failures in both languages", () => {
  it("is one message: the summary and the advice", () => {
    const ro = messages("ro").etransport.failure("UitValidityEnded", ["Y45R-577U-N544-GY4S"]);
    expect(ro).toBe(
      "Valabilitatea codului UIT Y45R-577U-N544-GY4S a expirat. Un cod UIT expirat nu poate fi folosit: cere un cod UIT nou pe platforma e-Transport.",
    );
    const en = messages("en").etransport.failure("UitValidityEnded", ["Y45R-577U-N544-GY4S"]);
    expect(en).toBe(
      "The validity of UIT Y45R-577U-N544-GY4S has ended. An expired UIT may not be used: request a new UIT on the e-Transport platform.",
    );
    expect(messages("ro").etransport.failure("PlatformTimeout", ["ANAF"])).toContain(
      "Platforma GPS a răspuns PlatformTimeout (ANAF).",
    );
  });
});
