/** `npm run sim`: the fleet simulator on PORT / SIM_PORT (default 4010), control enabled. */
import { startSimulator } from "./index.js";

function intFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

const port = intFromEnv("SIM_PORT") ?? intFromEnv("PORT") ?? 4010;
const minIntervalMs = intFromEnv("FLEET_MIN_INTERVAL_MS");
// Short-lived tokens (e.g. 20) show how a client renews them under load.
const tokenTtlSeconds = intFromEnv("SIM_TOKEN_TTL_SECONDS");
if (tokenTtlSeconds === 0) throw new Error("SIM_TOKEN_TTL_SECONDS must be at least 1");

const keyCase = process.env.SIM_KEY_CASE === "pascal" ? "pascal" : "camel";
// Strict-limits mode: the undocumented limits of stops, refills and temperatures tightened
// (STRICT_LIMITS), to try a client that learns them from 400s.
const strictLimits =
  process.argv.includes("--strict-limits") ||
  ["1", "true", "yes"].includes(process.env.SIM_STRICT_LIMITS ?? "");
const dateStyle = process.env.SIM_DATE_STYLE;

const sim = await startSimulator({
  port,
  control: true,
  keyCase,
  strictLimits,
  ...(dateStyle === "offset" || dateStyle === "localMillis" ? { dateStyle } : {}),
  ...(minIntervalMs === undefined ? {} : { minIntervalMs }),
  ...(tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds }),
  logger: { info: (o, msg) => console.log(msg ?? "", JSON.stringify(o)) },
});

console.log(`Fleet simulator listening on ${sim.url}`);
console.log(
  `  minimum interval per user: ${sim.options.minIntervalMs} ms; token lifetime ${sim.options.tokenTtlSeconds} s`,
);
const limits = Object.entries(sim.control.limits())
  .filter(([key, value]) => value !== null && !key.endsWith("PageSize"))
  .map(([key, value]) => `${key} ${value}`);
console.log(
  `  limits: documented${limits.length ? `; undocumented (strict): ${limits.join(", ")}` : " only"}`,
);
console.log(`  keys ${sim.options.keyCase}Case, dates "${sim.options.dateStyle}" in ${sim.options.timeZone}`);
console.log("  credentials: demo/demo (all vehicles), viewer/viewer (10 vehicles), inactive/inactive (401)");
console.log(`  control: ${sim.url}/__stats, ${sim.url}/__requests, POST ${sim.url}/__control/…`);

let closing = false;
const shutdown = (signal: string): void => {
  if (closing) return;
  closing = true;
  console.log(`${signal}: closing the fleet simulator`);
  sim.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGINT", () => shutdown("SIGINT"));
process.on("SIGTERM", () => shutdown("SIGTERM"));
