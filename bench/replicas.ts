/**
 * The replica part of `npm run bench` (issue 13): 1, 2 and 3 BUILT fleetbot processes
 * (`node dist/main.js`) on one redis-server and one fleet account, driven through signed Slack
 * requests sent round-robin to the replicas (the load balancer). The simulator's request log is
 * the measure; each replica's proxy (test/helpers/processReplicas.ts) tells who sent what.
 *
 * Per replica count:
 * - throughput: a backlog of three-call reports; calls per minute at the service while it drains
 *   (the account's limit is the limit, so more replicas must not make it faster, nor slower);
 * - 429s the service answered during the whole run (0);
 * - a `where` sent while the backlog drains: command → its call at the service, and → its answer;
 * - failover (2 and 3 replicas): a ten-call report, its replica killed with SIGKILL after two
 *   of its calls; kill → the report's next call at the service, in slots; answered once.
 */

import { type ProcessReplicas, startProcessReplicas } from "../test/helpers/processReplicas.js";
import { answerTo, bodyText, isProgress } from "./realtime/harness.js";
import { buildBot } from "./realtime/run.js";

export const REPLICA_INTERVAL_MS = 500;
export const REPLICA_MARGIN_MS = 100;
const SLOT_MS = REPLICA_INTERVAL_MS + REPLICA_MARGIN_MS;
/** BullMQ's lock as main.ts sets it: clamp(4 × interval, 2 s, 30 s). */
const LOCK_MS = Math.min(30_000, Math.max(2_000, 4 * REPLICA_INTERVAL_MS));
const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";
const REPORTS = 10;
const CALLS_PER_REPORT = 3;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const fmt = (n: number | undefined, digits = 2) =>
  n !== undefined && Number.isFinite(n) ? n.toFixed(digits) : "n/a";

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs: number): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timeout: ${what}`);
    await sleep(10);
  }
}

export interface ReplicaFigures {
  replicas: number;
  callsPerMinute: number;
  rateLimited: number;
  lookupCallSlots: number;
  lookupAnswerSlots: number;
  /**
   * The replica that took the lookup's job logged in first (a login between the command and its
   * call): each replica holds its own token, and the warm-up cannot choose which replica takes a job.
   */
  lookupLoggedIn: boolean;
  /** undefined with one replica: nothing to fail over to. */
  failoverSlots?: number;
  failoverAnswers?: number;
  callsPerReplica: string;
  startSeconds: number;
}

async function send(h: ProcessReplicas, replica: number, text: string) {
  const live = h.replicas.filter((r) => r.alive());
  const target = live[replica % live.length]!;
  const sentAt = Date.now();
  const result = await target.driver.slashCommand({ text, userId: USER, channelId: CHANNEL });
  if (result.status !== 200) throw new Error(`${text}: HTTP ${result.status}`);
  return { sentAt, responseUrl: result.payload.response_url ?? "" };
}

const upstream = (h: ProcessReplicas, endpoint: string, since: number) =>
  h.sim.control
    .requests(2000)
    .filter((r) => r.endpoint === endpoint && Date.parse(r.at) >= since)
    .map((r) => Date.parse(r.at));

async function measure(count: number): Promise<ReplicaFigures> {
  const h = await startProcessReplicas({
    replicas: count,
    entry: "built",
    intervalMs: REPLICA_INTERVAL_MS,
    marginMs: REPLICA_MARGIN_MS,
  });
  try {
    const plates = h.sim.vehicles.map((v) => v.plate);
    // Each replica logs in and loads the vehicle list once, so the figures below are the reports'.
    for (let i = 0; i < count; i++) {
      const warm = await send(h, i, `where ${plates[i]}`);
      await until("warm-up", () => answerTo(h.fake, warm.responseUrl), 30_000);
    }
    await sleep(2 * SLOT_MS);

    // Throughput: REPORTS three-call fuel reports (93 days: three 31-day windows), round robin.
    const backlogFrom = Date.now();
    const reports: Awaited<ReturnType<typeof send>>[] = [];
    for (let i = 0; i < REPORTS; i++) reports.push(await send(h, i, `fuel ${plates[i + 3]} last 93d`));
    // The lookup arrives once a few report calls are out.
    await until("report calls", () => upstream(h, "consumption", backlogFrom).length >= 4, 60_000);
    const lookupCallsBefore = upstream(h, "company-vehicles", 0).length;
    const lookup = await send(h, count - 1, `where ${plates[1]}`);
    const lookupCall = await until(
      "the lookup's call",
      () => upstream(h, "company-vehicles", 0)[lookupCallsBefore],
      60_000,
    );
    const lookupLoggedIn = upstream(h, "login", lookup.sentAt).some((at) => at <= lookupCall);
    const lookupAnswer = await until(
      "the lookup's answer",
      () => answerTo(h.fake, lookup.responseUrl),
      60_000,
    );
    await until(
      "the backlog's answers",
      () => reports.every((r) => answerTo(h.fake, r.responseUrl)),
      (REPORTS * CALLS_PER_REPORT + 20) * SLOT_MS,
    );
    const calls = upstream(h, "consumption", backlogFrom);
    const first = calls[0]!;
    const last = calls.at(-1)!;
    // Calls started per minute while the backlog drained (n calls, n − 1 gaps; the lookup's call
    // sits in one of the gaps and is counted too).
    const all = h.sim.control
      .requests(2000)
      .map((r) => Date.parse(r.at))
      .filter((at) => at >= first && at <= last);
    const callsPerMinute = ((all.length - 1) / (last - first)) * 60_000;

    let failoverSlots: number | undefined;
    let failoverAnswers: number | undefined;
    if (count > 1) {
      await sleep(2 * SLOT_MS);
      const longFrom = Date.now();
      const long = await send(h, 0, `fuel ${plates.slice(20, 23).join(", ")} last 300d`);
      await until(
        "two calls of the long report",
        () => upstream(h, "consumption", longFrom).length >= 2,
        60_000,
      );
      const runner = h.sentBy("carriers/consumption", longFrom);
      if (runner.length !== 1)
        throw new Error(`expected one replica running the report, saw ${runner.length}`);
      await runner[0]!.kill();
      const killedAt = Date.now();
      const next = await until(
        "the interrupted report's next call",
        () => upstream(h, "consumption", killedAt)[0],
        60_000,
      );
      failoverSlots = (next - killedAt) / SLOT_MS;
      await until("the long report's answer", () => answerTo(h.fake, long.responseUrl), 60_000);
      await sleep(4 * SLOT_MS);
      failoverAnswers = h.fake.responses.filter(
        (r) => r.url === long.responseUrl && !isProgress(bodyText(r.body)),
      ).length;
    }
    const rateLimited = Object.values(h.sim.control.stats().rateLimited).reduce((a, b) => a + b, 0);
    const perReplica = h.replicas
      .map((r) => `${r.name} ${r.upstream.filter((u) => u.at >= backlogFrom).length}`)
      .join(", ");
    return {
      replicas: count,
      callsPerMinute,
      rateLimited,
      lookupCallSlots: (lookupCall - lookup.sentAt) / SLOT_MS,
      lookupAnswerSlots: (lookupAnswer.at - lookup.sentAt) / SLOT_MS,
      lookupLoggedIn,
      failoverSlots,
      failoverAnswers,
      callsPerReplica: perReplica,
      startSeconds: Math.max(...h.replicas.map((r) => r.startMs)) / 1000,
    };
  } finally {
    await h.close();
  }
}

export interface ReplicaResult {
  table: string;
  settings: string;
  figures: ReplicaFigures[];
}

export async function runReplicas(options: { build?: boolean } = {}): Promise<ReplicaResult> {
  if (options.build !== false) buildBot();
  const figures: ReplicaFigures[] = [];
  for (const count of [1, 2, 3]) {
    process.stderr.write(`replicas: ${count}…\n`);
    figures.push(await measure(count));
  }
  const base = figures[0]!.callsPerMinute;
  const ideal = 60_000 / SLOT_MS;
  const table = [
    "| replicas | calls/min at the service | ÷ 1 replica | ÷ limit | 429s | `where` → its call (slots) | `where` → answer (slots) | kill -9 → next call (slots) | answers after the kill | calls per replica |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...figures.map(
      (f) =>
        `| ${f.replicas} | ${fmt(f.callsPerMinute, 1)} | ${fmt(f.callsPerMinute / base)} | ${fmt(f.callsPerMinute / ideal)} | ${f.rateLimited} | ${fmt(f.lookupCallSlots)}${f.lookupLoggedIn ? " (a login first)" : ""} | ${fmt(f.lookupAnswerSlots)} | ${f.failoverSlots === undefined ? "—" : fmt(f.failoverSlots)} | ${f.failoverAnswers ?? "—"} | ${f.callsPerReplica} |`,
    ),
  ].join("\n");
  const settings = `interval ${REPLICA_INTERVAL_MS} ms, margin ${REPLICA_MARGIN_MS} ms, slot ${SLOT_MS} ms (limit ${fmt(ideal, 0)} calls/min)`;
  return { table, settings, figures };
}

export function replicaNotes(settings: string): string {
  return `\`npm run bench -- --replicas\` runs this part alone and replaces this section (a whole
\`npm run bench\` includes it). 1, 2 and 3 replicas of the built bot (\`node dist/main.js\`, REDIS_URL set) on one
redis-server (AOF on) and one fleet account (demo), each reaching the simulator through a
pass-through proxy of its own so the bench knows which replica sent which call. Commands go
round-robin to the replicas through signed Slack requests. Settings: ${settings}; BullMQ's lock
is clamp(4 × interval, 2 s, 30 s) = ${LOCK_MS / 1000} s, the gate's turn lease max(interval, 1 s).`;
}

export const REPLICA_READING = `- Throughput: ${REPORTS} \`fuel <plate> last 93d\` reports (3 calls each) sent round-robin; calls
  started per minute at the service from the first report call to the last (the lookup's call
  included). It should not move with the replica count: the account's limit is the limit.
- \`where\`: sent to the last replica after 4 report calls are out, while the backlog drains;
  "→ its call" is command → its company-vehicles call at the service (≤ 1 slot: it goes before
  every waiting report call, whichever replica holds them), "→ answer" adds the answer's way back.
  Each replica logs in with a token of its own, and any replica may take the lookup's job: one
  that has not logged in yet logs in first, one slot more ("a login first"; the warm-up's
  lookups, one sent to each replica, are not always taken by each).
- kill -9: \`fuel <3 plates> last 300d\` (10 calls); after its second call the replica running it
  (told by its proxy) gets SIGKILL; the figure is the kill → the report's next call at the service
  from another replica (BullMQ's lock has to lapse and its stalled-job check to run first), and
  the answers the report got (1: answered once).
- Calls per replica: upstream requests each replica sent from the backlog on (the killed one's
  stop at its death).
- The kill -9 figure is mostly BullMQ's lock (${LOCK_MS / 1000} s here, ${fmt(LOCK_MS / SLOT_MS, 1)} slots): at the default 30 s interval
  the lock is 30 s, so a killed replica's report resumes about one slot (plus up to half a lock
  for the stalled check) after the kill.`;
