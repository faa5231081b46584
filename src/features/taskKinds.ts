/**
 * The task kinds fleetbot stores: for each, its parameters and its result. The runner is
 * generic (it stores `unknown`); this map is what lets the Slack side submit, describe and
 * render a task with types that narrow on its kind.
 */
import type { z } from "zod";
import type { TaskHandler } from "../platform/tasks/runner.js";
import { type NewTask, parseParams, type TaskRecord } from "../platform/tasks/task.js";
import {
  type AccountLinkParams,
  type AccountLinkResult,
  accountLinkParams,
} from "./account/kinds/accountLink.js";
import {
  type TransportActionOutcome,
  type TransportActionParams,
  transportActionParams,
} from "./etransport/kinds/transportAction.js";
import {
  type TransportFindParams,
  type TransportFindResult,
  type TransportListParams,
  type TransportListResult,
  type TransportRemoveParams,
  type TransportRemoveResult,
  type TransportSaveParams,
  type TransportSaveResult,
  transportFindParams,
  transportListParams,
  transportRemoveParams,
  transportSaveParams,
} from "./etransport/kinds/transports.js";
import { type VehicleReportParams, type VehicleReportResult, vehicleReportParams } from "./reports/kind.js";

export interface TaskKinds {
  "vehicle-report": { params: VehicleReportParams; result: VehicleReportResult };
  "transport-list": { params: TransportListParams; result: TransportListResult };
  "transport-find": { params: TransportFindParams; result: TransportFindResult };
  "transport-action": { params: TransportActionParams; result: TransportActionOutcome };
  "transport-save": { params: TransportSaveParams; result: TransportSaveResult };
  "transport-remove": { params: TransportRemoveParams; result: TransportRemoveResult };
  "account-link": { params: AccountLinkParams; result: AccountLinkResult };
}
export type TaskKind = keyof TaskKinds;
export type TaskParams<K extends TaskKind> = TaskKinds[K]["params"];
export type TaskResult<K extends TaskKind> = TaskKinds[K]["result"];

const PARAM_SCHEMAS = {
  "vehicle-report": vehicleReportParams,
  "transport-list": transportListParams,
  "transport-find": transportFindParams,
  "transport-action": transportActionParams,
  "transport-save": transportSaveParams,
  "transport-remove": transportRemoveParams,
  "account-link": accountLinkParams,
};

/** Parameters as a submitter writes them (before zod's defaults are applied). */
export type TaskInput<K extends TaskKind> = z.input<(typeof PARAM_SCHEMAS)[K]>;

/** Each kind's parameter schema (what the runner validates on submit and before each run). */
export const TASK_PARAMS: { [K in TaskKind]: z.ZodType<TaskParams<K>, TaskInput<K>> } = PARAM_SCHEMAS;

/** A handler of one kind: its params and result are the kind's. */
export type KindHandler<K extends TaskKind, S> = TaskHandler<TaskParams<K>, TaskResult<K>, S> & { kind: K };

/** A new task of one kind, parameters typed. */
export type NewTaskOf<K extends TaskKind> = Omit<NewTask, "kind" | "params"> & {
  kind: K;
  params: TaskInput<K>;
};

/** A stored task of one kind: parameters parsed, result typed. */
export type TaskOf<K extends TaskKind> = Omit<TaskRecord, "kind" | "params" | "result"> & {
  kind: K;
  params: TaskParams<K>;
  result?: TaskResult<K>;
};

export function isTaskKind(kind: string): kind is TaskKind {
  return Object.hasOwn(TASK_PARAMS, kind);
}

/**
 * A stored task read as the kind it says it is; undefined when its parameters no longer fit
 * (a row from an older version). The result is taken as the kind's: the runner stored exactly
 * what this kind's handler returned (JSON-safe by the handlers' contract), and nothing else
 * writes a result, so it is the one place the stored `unknown` is asserted rather than parsed.
 */
export function taskOf<K extends TaskKind>(task: TaskRecord, kind: K): TaskOf<K> | undefined {
  if (task.kind !== kind) return undefined;
  const params = parseParams(TASK_PARAMS[kind], task.params);
  if (!params.success) return undefined;
  return { ...task, kind, params: params.data, result: task.result as TaskResult<K> | undefined };
}
