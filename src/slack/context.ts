import type { Logger } from "pino";
import type { AlertSubscriptions } from "../alerts/subscriptions.js";
import type { FleetClient, FleetSession } from "../fleet/client.js";
import type { Vehicle } from "../fleet/schemas.js";
import type { AccountStore } from "../store/accountStore.js";
import type { AlertStore } from "../store/alertStore.js";
import type { TaskStore } from "../store/taskStore.js";
import type { TaskRunner } from "../tasks/runner.js";
import type { VehicleCache } from "../tasks/vehicleCache.js";
import type { TaskDelivery } from "./delivery.js";
import type { People } from "./people.js";

/** What the listeners need: they parse, store a task, acknowledge; the work happens in tasks. */
export interface SlackContext {
  runner: TaskRunner<FleetSession>;
  tasks: TaskStore;
  accounts: AccountStore;
  client: FleetClient;
  vehicles: VehicleCache<Vehicle>;
  people: People;
  delivery: TaskDelivery;
  credentialsKey?: Buffer;
  companyTimeZone: string;
  alerts: {
    subscriptions: AlertSubscriptions;
    store: AlertStore;
    /** Can the bot post in this channel? (private channels need an invitation) */
    checkChannel(channel: string): Promise<{ ok: true } | { ok: false; reason: string }>;
  };
  /** After an unlink: forget the account's session and token unless someone else still uses it. */
  releaseAccount(username: string): void;
  /** Starts a background fetch of the account's vehicle list (modals need it for their selects). */
  warmVehicles(account: string, slackUser: string): void;
  logger: Pick<Logger, "info" | "warn" | "error" | "debug">;
  now(): number;
}
