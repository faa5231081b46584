import { describe, expect, it } from "vitest";
import { CSV_BOM, csvField, csvHeader, toCsv } from "../../../../../src/features/reports/slack/files/csv.js";

describe("csv writer", () => {
  it("quotes fields with comma, quote, CR or LF and doubles quotes", () => {
    expect(csvField("plain", "en")).toBe("plain");
    expect(csvField("a,b", "en")).toBe('"a,b"');
    expect(csvField('say "hi"', "en")).toBe('"say ""hi"""');
    expect(csvField("line1\nline2", "en")).toBe('"line1\nline2"');
    expect(csvField("a\rb", "en")).toBe('"a\rb"');
  });

  it("guards text that a spreadsheet would run as a formula, but not numbers", () => {
    expect(csvField('=HYPERLINK("http://x")', "en")).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField("+40 721", "en")).toBe("'+40 721");
    expect(csvField("-cmd", "en")).toBe("'-cmd");
    expect(csvField("@SUM(A1)", "en")).toBe("'@SUM(A1)");
    expect(csvField("\tx", "en")).toBe("'\tx");
    expect(csvField(-18.5, "en")).toBe("-18.5");
    expect(csvField(0, "en")).toBe("0");
  });

  it("writes empty fields for absent values and true/false for booleans", () => {
    expect(csvField(undefined, "en")).toBe("");
    expect(csvField(null, "en")).toBe("");
    expect(csvField(Number.NaN, "en")).toBe("");
    expect(csvField(true, "en")).toBe("true");
  });

  it("starts with a BOM, ends lines with CRLF and keeps diacritics", () => {
    const csv = toCsv(["plate", "address"], [["B-1-AAA", "Strada Ștefan cel Mare, Brașov"]], "en");
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(csv).toBe(`${CSV_BOM}plate,address\r\nB-1-AAA,"Strada Ștefan cel Mare, Brașov"\r\n`);
    expect(Buffer.from(csv, "utf8").subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });
});

describe("csv writer for a Romanian reader", () => {
  it("separates with ';', writes decimal commas and Romanian booleans, quotes a ';'", () => {
    const csv = toCsv(
      ["Nr. de înmatriculare", "Litri", "Privat", "Adresă"],
      [
        ["B-1-AAA", 1234.5, true, "Str. Ștefan cel Mare; Brașov"],
        ["B-2-BBB", -18.25, false, "Cluj, Strada 1"],
      ],
      "ro",
    );
    expect(csv).toBe(
      `${CSV_BOM}Nr. de înmatriculare;Litri;Privat;Adresă\r\n` +
        `B-1-AAA;1234,5;da;"Str. Ștefan cel Mare; Brașov"\r\n` +
        "B-2-BBB;-18,25;nu;Cluj, Strada 1\r\n",
    );
  });

  it("keeps English as it was: ',' and a decimal point", () => {
    expect(csvField(1234.5, "en")).toBe("1234.5");
    expect(csvField(1234.5, "ro")).toBe("1234,5");
    expect(csvField(false, "en")).toBe("false");
    expect(csvField("a;b", "en")).toBe("a;b");
    expect(csvField("a;b", "ro")).toBe('"a;b"');
    expect(csvField("=1+1", "ro")).toBe("'=1+1");
  });

  it("writes the header in the reader's language", () => {
    expect(csvHeader(["plate", "durationMin", "litres"], "en")).toEqual(["plate", "duration_min", "litres"]);
    expect(csvHeader(["plate", "durationMin", "litres"], "ro")).toEqual([
      "Nr. de înmatriculare",
      "Durată (min)",
      "Litri",
    ]);
  });
});
