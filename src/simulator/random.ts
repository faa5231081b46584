/**
 * Deterministic randomness. Every synthetic fact is a pure function of the fleet seed and
 * the thing it describes (vehicle, day, transport…), so any period can be queried in any
 * order and two simulators with the same seed answer the same.
 */

/** 32-bit FNV-1a over the parts, mixed with a murmur finaliser. */
export function hash32(...parts: ReadonlyArray<string | number>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const text = `${part}|`;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A number in [0, 1) fixed by the parts. */
export function unit(...parts: ReadonlyArray<string | number>): number {
  return hash32(...parts) / 0x1_0000_0000;
}

/** A small sequential generator (mulberry32) for building one thing in several steps. */
export class Rng {
  private state: number;

  constructor(...parts: ReadonlyArray<string | number>) {
    this.state = hash32(...parts) || 1;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  }

  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  int(min: number, maxInclusive: number): number {
    return min + Math.floor(this.next() * (maxInclusive - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }
}

/** A GUID-shaped string (version 4 layout) fixed by the parts. */
export function guid(...parts: ReadonlyArray<string | number>): string {
  const rng = new Rng("guid", ...parts);
  const hex = Array.from({ length: 32 }, () => Math.floor(rng.next() * 16).toString(16));
  hex[12] = "4";
  hex[16] = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
