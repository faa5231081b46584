/**
 * What a renderer gives delivery for a task (src/features/renderers.ts → src/platform/slack/delivery.ts):
 * the message, the files for the user's direct messages, a modal, and what to keep.
 */
import type { View } from "@slack/types";
import type { SlackMessage } from "./views/message.js";

export interface OutgoingFile {
  filename: string;
  title: string;
  content: Uint8Array | string;
}

export interface Rendered {
  message: SlackMessage;
  files?: OutgoingFile[];
  /** A modal to show instead of a message, when the task was asked from one (edit form). */
  view?: View;
  /**
   * Another task's result to keep current (a list after an action on one of its cards), stored by
   * delivery as it is: the kind's own result, JSON-safe like every result.
   */
  listUpdate?: { taskId: string; result: unknown };
}
