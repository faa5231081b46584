import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { UpstreamCall } from "./fleet/seam.js";
import type { GateObserver } from "./gate/gate.js";

/**
 * Prometheus metrics served on GET /metrics: what an operator needs to see whether the
 * 30-second budget is well used: queue depth and waits, upstream calls by endpoint and
 * outcome, 429s, alert posts.
 */
export class FleetbotMetrics {
  readonly registry = new Registry();
  readonly upstreamCalls: Counter<"endpoint" | "outcome">;
  readonly upstreamDuration: Histogram<"endpoint">;
  readonly gateWait: Histogram<"endpoint">;
  readonly sharedCallers: Counter<"endpoint">;
  readonly rateLimited: Counter<"account_kind">;
  readonly queueDepth: Gauge<"state">;
  readonly alertPosts: Counter<"outcome">;

  constructor() {
    this.upstreamCalls = new Counter({
      name: "fleetbot_upstream_calls_total",
      help: "Requests sent to the fleet service, by endpoint and outcome (ok, error, rate_limited).",
      labelNames: ["endpoint", "outcome"],
      registers: [this.registry],
    });
    this.upstreamDuration = new Histogram({
      name: "fleetbot_upstream_call_seconds",
      help: "Duration of requests to the fleet service.",
      labelNames: ["endpoint"],
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers: [this.registry],
    });
    this.gateWait = new Histogram({
      name: "fleetbot_gate_wait_seconds",
      help: "Time a call waited in its account's gate before it was sent.",
      labelNames: ["endpoint"],
      buckets: [0, 1, 5, 15, 30, 60, 120, 300, 600, 1800],
      registers: [this.registry],
    });
    this.sharedCallers = new Counter({
      name: "fleetbot_gate_shared_callers_total",
      help: "Callers served by an identical call instead of a call of their own.",
      labelNames: ["endpoint"],
      registers: [this.registry],
    });
    this.rateLimited = new Counter({
      name: "fleetbot_upstream_429_total",
      help: "429 answers from the fleet service (each is retried after the pushed-back slot).",
      labelNames: ["account_kind"],
      registers: [this.registry],
    });
    this.queueDepth = new Gauge({
      name: "fleetbot_tasks",
      help: "Tasks by state (queued, running).",
      labelNames: ["state"],
      registers: [this.registry],
    });
    this.alertPosts = new Counter({
      name: "fleetbot_alert_posts_total",
      help: "Alert messages posted or updated in Slack, by outcome.",
      labelNames: ["outcome"],
      registers: [this.registry],
    });
  }

  /** Feeds the gate's events into the counters; account names stay out of labels (cardinality, privacy). */
  gateObserver(): GateObserver {
    return {
      callStarted: (call: UpstreamCall, waitedMs: number) => {
        this.gateWait.observe({ endpoint: call.endpoint }, waitedMs / 1000);
      },
      callFinished: (call, outcome, durationMs, callers) => {
        this.upstreamCalls.inc({ endpoint: call.endpoint, outcome });
        this.upstreamDuration.observe({ endpoint: call.endpoint }, durationMs / 1000);
        if (outcome !== "rate_limited" && callers > 1)
          this.sharedCallers.inc({ endpoint: call.endpoint }, callers - 1);
      },
      rateLimited: () => {
        this.rateLimited.inc({ account_kind: "fleet" });
      },
    };
  }

  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
