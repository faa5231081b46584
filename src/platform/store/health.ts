import type { Db } from "./database.js";

/** SQLite result codes that mean "the disk will not take this write", not a bug in fleetbot. */
const UNWRITABLE_CODES: Readonly<Record<string, string>> = {
  SQLITE_FULL: "the disk of DATA_DIR is full",
  SQLITE_READONLY: "DATA_DIR is read-only",
  SQLITE_IOERR: "DATA_DIR cannot be written (I/O error)",
  SQLITE_CANTOPEN: "the store file cannot be opened for writing",
};

function sqliteCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const code = error.code;
  if (typeof code !== "string") return undefined;
  // Extended codes (SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED…) share their primary's meaning.
  return Object.keys(UNWRITABLE_CODES).find((primary) => code === primary || code.startsWith(`${primary}_`));
}

/** True when the error is the disk refusing a write (full, read-only, I/O), which time or an operator can fix. */
export function isStoreUnwritable(error: unknown): boolean {
  return sqliteCode(error) !== undefined;
}

export interface StoreHealthStatus {
  ok: boolean;
  /** Why the store cannot be written, for /healthz and the log. */
  reason?: string;
  since?: number;
}

/**
 * The mark both stores keep (SQLite: unwritable; Redis: unreachable): set once with its reason
 * and time, cleared when the store takes writes again, which tells the listeners (interrupted
 * tasks resume then). Each backend decides when to set and clear it.
 */
export abstract class HealthMark {
  private problem?: { reason: string; since: number };
  private readonly recovered = new Set<() => void>();

  constructor(protected readonly now: () => number) {}

  /** Keeps the first reason and time of an outage. */
  protected mark(reason: string): void {
    if (!this.problem) this.problem = { reason, since: this.now() };
  }

  protected get marked(): boolean {
    return this.problem !== undefined;
  }

  /** Clears the mark and tells the listeners, once per outage. */
  protected recover(): void {
    if (!this.problem) return;
    this.problem = undefined;
    for (const listener of this.recovered) listener();
  }

  /** Called once each time the store takes writes again (interrupted tasks resume then). */
  onRecovered(listener: () => void): void {
    this.recovered.add(listener);
  }

  status(): StoreHealthStatus {
    return this.problem
      ? { ok: false, reason: this.problem.reason, since: this.problem.since }
      : { ok: true };
  }
}

/**
 * Whether the store takes writes. A failed write marks it unwritable (so /healthz turns 503
 * and users are told at once); `check()` tries a tiny write and clears the mark when space is
 * back, so everything recovers by itself.
 */
export class StoreHealth extends HealthMark {
  /** How this store fails: its disk stops taking writes. */
  readonly outage = "unwritable" as const;

  constructor(
    private readonly db: Db,
    now: () => number = Date.now,
  ) {
    super(now);
    // Outside the numbered migrations on purpose: a scratch table with one row, safe to recreate.
    db.exec(
      "CREATE TABLE IF NOT EXISTS store_probe (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, payload BLOB)",
    );
  }

  /** Records a failed write; returns true when the error was the disk (and is now reported). */
  failed(error: unknown): boolean {
    const code = sqliteCode(error);
    if (!code) return false;
    this.mark(UNWRITABLE_CODES[code] ?? code);
    return true;
  }

  /** Tries a write when a problem is known; clears it when the write goes through. */
  check(): StoreHealthStatus {
    if (this.marked) {
      try {
        // As large as a typical task row, so a disk with a few free bytes is not taken for recovered.
        this.db
          .prepare("INSERT OR REPLACE INTO store_probe (id, at, payload) VALUES (1, ?, zeroblob(65536))")
          .run(this.now());
        this.db.prepare("UPDATE store_probe SET payload = NULL WHERE id = 1").run();
        this.recover();
      } catch (error) {
        this.failed(error);
      }
    }
    return this.status();
  }
}
