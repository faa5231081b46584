/**
 * The temperature chart, rendered away from the bot's memory. temperatureChartPng starts this
 * module as a worker thread; the worker does not load the chart libraries itself but forks a
 * child process running this same module, which renders one chart and exits. A thread that exits
 * gives back its V8 heap, but what vega and resvg allocated natively stays in the process's malloc
 * arenas for good (13–15 MB of resident memory measured on the built bot after one chart); a
 * process that exits gives back everything. Input and output cross as structured clones (the
 * report is JSON-safe by design; the PNG's buffer is transferred to the bot's thread, not copied).
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { isLanguage, type Language } from "../../../../i18n/language.js";
import type { TemperatureReport } from "../../temperatures.js";
import { renderTemperatureChart } from "./temperatureChart.js";

interface ChartJob {
  report: TemperatureReport;
  vehicleId: number;
  /** The reader's language: the chart's words, numbers and month and day names. */
  language: Language;
}

/**
 * A job as the bot's thread sent it (its own structured clone): the shape is checked, the report's
 * fields are the bot's own (TemperatureReport, built by temperatureReport).
 */
function isChartJob(value: unknown): value is ChartJob {
  return (
    typeof value === "object" &&
    value !== null &&
    "vehicleId" in value &&
    typeof value.vehicleId === "number" &&
    "language" in value &&
    isLanguage(value.language) &&
    "report" in value &&
    typeof value.report === "object" &&
    value.report !== null
  );
}

/** Set in the child's environment: this module then renders instead of relaying. */
const CHILD_PROCESS = "FLEETBOT_CHART_PROCESS";

/** What the child answers: the PNG, or why there is none. */
type ChildAnswer = { png: Uint8Array } | { error: string };

function childAnswer(message: unknown): ChildAnswer | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  if ("png" in message && message.png instanceof Uint8Array) return { png: message.png };
  if ("error" in message && typeof message.error === "string") return { error: message.error };
  return undefined;
}

/** Forks this module as a child process, hands it the job, and resolves with its PNG. */
function renderInChildProcess(job: ChartJob): Promise<Uint8Array> {
  const self = import.meta.url;
  // From the sources (tests, tsx) the child is TypeScript too: it loads tsx first.
  const execArgv = self.endsWith(".ts") ? ["--import", import.meta.resolve("tsx")] : [];
  const child = fork(fileURLToPath(self), [], {
    execArgv,
    env: { ...process.env, [CHILD_PROCESS]: "1" },
    serialization: "advanced",
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  return new Promise<Uint8Array>((resolve, reject) => {
    let answered = false;
    child.once("message", (message: unknown) => {
      answered = true;
      const answer = childAnswer(message);
      if (answer && "png" in answer) resolve(answer.png);
      else reject(new Error(answer?.error ?? "the chart process answered something else than a chart"));
    });
    child.once("error", (error) => {
      answered = true;
      reject(error);
    });
    child.once("exit", (code, signal) => {
      if (!answered)
        reject(new Error(`the chart process stopped (${signal ?? `exit code ${code}`}) without a chart`));
    });
    child.send(job);
  });
}

if (process.env[CHILD_PROCESS] === "1") {
  // The child: one chart, one answer, then exit. If the bot goes away first, so does the child.
  process.once("disconnect", () => process.exit(1));
  process.once("message", (job: unknown) => {
    if (!isChartJob(job)) {
      process.send?.({ error: "the chart process got no chart job" }, () => process.exit(1));
      return;
    }
    renderTemperatureChart(job.report, job.vehicleId, job.language).then(
      (png) => process.send?.({ png }, () => process.exit(0)),
      (error: unknown) =>
        process.send?.({ error: error instanceof Error ? error.message : String(error) }, () =>
          process.exit(1),
        ),
    );
  });
} else if (!isMainThread && parentPort) {
  // The worker thread of temperatureChartPng: relays the job to a child process.
  if (!isChartJob(workerData)) throw new Error("the chart worker got no chart job");
  const png = await renderInChildProcess(workerData);
  parentPort.postMessage(png, [png.buffer as ArrayBuffer]);
}
