import type { ServerResponse } from "node:http";
import type { FakeSlack } from "../fakeSlack/index.js";
import type { ChangeEvent } from "../fakeSlack/types.js";

/**
 * The fake Slack's change counter, told to the page: a version that grows after every visible
 * change, pushed to open event streams and waking long polls.
 */
export class ChangeFeed {
  #version = 1;
  readonly #streams = new Set<ServerResponse>();
  readonly #waiters = new Set<() => void>();
  #pending: NodeJS.Timeout | undefined;
  readonly #unsubscribe: () => void;

  constructor(fake: FakeSlack) {
    this.#unsubscribe = fake.onChange((event: ChangeEvent) => {
      if (event.kind === "call" || event.kind === "response" || event.kind === "socket") return;
      // Changes come in bursts (a post, then its file); one notification per burst.
      this.#pending ??= setTimeout(() => this.#notify(), 15);
    });
  }

  get version(): number {
    return this.#version;
  }

  /** Resolves at the next change, after `timeoutMs`, or when `cancel` fires (the client left). */
  waitForChange(
    timeoutMs: number,
    cancel: { once(event: "close", listener: () => void): unknown },
  ): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiters.add(done);
      cancel.once("close", done);
    });
  }

  /** Adds an open Server-Sent Events response; it gets a `version` frame after every change. */
  addStream(res: ServerResponse): () => void {
    this.#streams.add(res);
    return () => this.#streams.delete(res);
  }

  /** A change of the page's own state (not the fake Slack's): its language, told like any other. */
  touch(): void {
    this.#pending ??= setTimeout(() => this.#notify(), 15);
  }

  /** Ends open streams and wakes long polls, so the HTTP server can stop. */
  close(): void {
    this.#unsubscribe();
    if (this.#pending) clearTimeout(this.#pending);
    for (const res of this.#streams) res.end();
    this.#streams.clear();
    for (const wake of [...this.#waiters]) wake();
  }

  #notify(): void {
    this.#pending = undefined;
    this.#version += 1;
    const frame = versionFrame(this.#version);
    for (const res of this.#streams) res.write(frame);
    for (const wake of [...this.#waiters]) wake();
  }
}

export function versionFrame(version: number): string {
  return `event: version\ndata: ${JSON.stringify({ version })}\n\n`;
}
