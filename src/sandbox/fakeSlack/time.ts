/** Slack's ids and clocks: message ts strings, user time zone offsets and labels. */

/** Issues Slack message timestamps ("seconds.micros") that strictly increase, like Slack's per-workspace ts. */
export class TsClock {
  private lastMicros = 0;
  constructor(private readonly now: () => number) {}

  next(): string {
    const micros = Math.max(Math.floor(this.now()) * 1000, this.lastMicros + 1);
    this.lastMicros = micros;
    const seconds = Math.floor(micros / 1_000_000);
    return `${seconds}.${String(micros % 1_000_000).padStart(6, "0")}`;
  }

  reset(): void {
    this.lastMicros = 0;
  }
}

/** users.info's tz_offset (seconds east of UTC) and tz_label at a given instant. */
export function zoneInfo(tz: string, atMs: number): { offsetSeconds: number; label: string } {
  const at = new Date(atMs);
  const offsetName = partOf(tz, at, "longOffset");
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(offsetName);
  let offsetSeconds = 0;
  if (match) {
    const sign = match[1] === "-" ? -1 : 1;
    offsetSeconds = sign * (Number(match[2]) * 3600 + Number(match[3]) * 60);
  }
  return { offsetSeconds, label: partOf(tz, at, "long") };
}

function partOf(tz: string, at: Date, style: "longOffset" | "long"): string {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: tz, timeZoneName: style }).formatToParts(at);
  return parts.find((p) => p.type === "timeZoneName")?.value ?? "";
}
