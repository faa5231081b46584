/** Small pure text helpers shared by the grammar. */

/** Optimal-string-alignment edit distance (Levenshtein plus adjacent transpositions: `stosp` → `stops` is 1). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [];
    for (let j = 0; j <= b.length; j++) row.push(i === 0 ? j : j === 0 ? i : 0);
    rows.push(row);
  }
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i]!;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The closest word of `words` to `input` when close enough to be a plausible typo (or a unique prefix). */
export function closestWord(input: string, words: readonly string[]): string | undefined {
  const needle = input.toLowerCase();
  if (needle.length === 0) return undefined;
  const prefixed = words.filter((w) => w.startsWith(needle));
  if (needle.length >= 2 && prefixed.length === 1) return prefixed[0];
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const word of words) {
    const d = editDistance(needle, word);
    if (d < bestDistance) {
      best = word;
      bestDistance = d;
    }
  }
  const limit = needle.length <= 3 ? 1 : needle.length <= 6 ? 2 : 3;
  return bestDistance <= limit ? best : undefined;
}

/**
 * Slack sends the text of a slash command with `&`, `<` and `>` escaped; undo that for free text
 * (vehicle names, search words). Channel links (`<#C…|name>`) are read before this is applied.
 */
export function decodeSlackEntities(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** Trim and collapse every run of white space (including no-break spaces) to one space. */
export function squeeze(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Split off the first word: `["stops", "B-123-ABC today"]`. */
export function firstWord(text: string): [string, string] {
  const t = squeeze(text);
  const i = t.indexOf(" ");
  return i < 0 ? [t, ""] : [t.slice(0, i), t.slice(i + 1)];
}

/** Inline code for mrkdwn messages; backticks inside are replaced so the span cannot break. */
export function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}
