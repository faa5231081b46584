import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GLOSSARY } from "../../src/i18n/ro/glossary.js";

/**
 * The Romanian glossary holds: no word it rejected appears in a Romanian message. Comments are
 * left out (they may name the rejected words); string and template literals are what a reader sees.
 */
const RO = join(import.meta.dirname, "..", "..", "src", "i18n", "ro");

function messagesOf(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1")
    .toLowerCase();
}

/** Whole words only: `terminat` is not found inside `determinat`. */
function contains(text: string, phrase: string): boolean {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}])${escaped}(?![\\p{L}])`, "u").test(text);
}

describe("the Romanian glossary", () => {
  const files = readdirSync(RO).filter((f) => f.endsWith(".ts") && f !== "glossary.ts");

  it("names each concept once, with no word both used and rejected", () => {
    expect(GLOSSARY.length).toBeGreaterThan(10);
    for (const entry of GLOSSARY)
      for (const word of entry.rejected) expect(entry.use.toLowerCase()).not.toContain(word);
  });

  it("no rejected word appears in a Romanian message", () => {
    const found: string[] = [];
    for (const file of files) {
      const text = messagesOf(readFileSync(join(RO, file), "utf8"));
      for (const entry of GLOSSARY)
        for (const word of entry.rejected)
          if (contains(text, word)) found.push(`${file}: "${word}" (use "${entry.use}")`);
    }
    expect(found).toEqual([]);
  });

  it("finds a rejected word when one is there (the check can fail)", () => {
    expect(contains(messagesOf('const a = "Caut la serviciul de flotă…";'), "serviciul de flotă")).toBe(true);
    expect(contains(messagesOf("// serviciul de flotă\nconst a = 1;"), "serviciul de flotă")).toBe(false);
    expect(contains("a fost determinat", "terminat")).toBe(false);
  });
});
