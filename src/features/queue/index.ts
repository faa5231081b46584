/** The queue, as other features see it: a user's waiting tasks, and the `/fleet queue` answer. */
export { queueEntries, showQueue } from "./slack/listeners.js";
export { queueListeners } from "./slack/registration.js";
export type { QueueEntry } from "./slack/views.js";
