import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
/** The outside contract lives beside the project (../shared), never in it. */
const contractPath = join(root, "..", "shared", "CONTRACT.md");

/** The rows of the markdown table that follows `heading` (up to the next heading). */
function tableRows(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) return [];
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(/^#{1,6} /m);
  return (end < 0 ? rest : rest.slice(0, end))
    .split("\n")
    .filter((line) => /^\| [A-Z][A-Z0-9_]*(, [A-Z][A-Z0-9_]*)* \|/.test(line));
}

describe("README", () => {
  it.skipIf(!existsSync(contractPath) && !process.env.CI)(
    "carries every configuration row of CONTRACT.md word for word (REDIS_URL included)",
    () => {
      expect(existsSync(contractPath), `the contract is expected at ${contractPath}`).toBe(true);
      const contract = tableRows(
        readFileSync(contractPath, "utf8"),
        "## Configuration (environment variables)",
      );
      expect(contract.some((row) => row.startsWith("| REDIS_URL |"))).toBe(true);
      const readmeRows = tableRows(readme, "## Configuration");
      for (const row of contract) expect(readmeRows, row.split(" | ")[0]).toContain(row);
    },
  );

  it("links to its Several replicas section and to the architecture page's state table", () => {
    expect(readme).toMatch(/^## Several replicas$/m);
    expect(readme).toContain("](#several-replicas)");
    const architecture = readFileSync(join(root, "docs", "ARCHITECTURE.md"), "utf8");
    expect(architecture).toMatch(/^## Where each piece of state lives$/m);
    expect(readme).toContain("docs/ARCHITECTURE.md#where-each-piece-of-state-lives");
  });
});
