/**
 * What a feature registers with the Slack app: its slash commands, buttons, modal submissions,
 * external selects and events, each a thin listener `(args, deps)` over the workspace's deps.
 * listeners.ts merges every feature's table into the app's one list (the manifest test reads it).
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from "@slack/bolt";
import type { ListenerDeps } from "./context.js";

export type Listener<A> = (args: A, deps: ListenerDeps) => Promise<void>;
export type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;
export type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;
export type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
export type OptionsArgs = SlackOptionsMiddlewareArgs<"block_suggestion"> & AllMiddlewareArgs;
export type HomeOpenedArgs = SlackEventMiddlewareArgs<"app_home_opened"> & AllMiddlewareArgs;

export interface FeatureListeners {
  /** Slash commands (manifest.yml `features.slash_commands`). */
  commands?: Readonly<Record<string, Listener<CommandArgs>>>;
  /** Buttons, by action_id. */
  buttons?: Readonly<Record<string, Listener<ButtonArgs>>>;
  /** Modal submissions, by callback_id. */
  viewSubmissions?: Readonly<Record<string, Listener<ViewArgs>>>;
  /** External selects (manifest.yml `message_menu_options_url`), by block_id. */
  selectOptions?: Readonly<Record<string, Listener<OptionsArgs>>>;
  /** Events (manifest.yml `settings.event_subscriptions.bot_events`). */
  events?: Readonly<Partial<Record<"app_home_opened", Listener<HomeOpenedArgs>>>>;
}

/** One table out of every feature's, refusing an id two features claim (a start-up error, not a silent override). */
export function mergedListeners<A>(
  tables: readonly (Readonly<Record<string, Listener<A>>> | undefined)[],
): Readonly<Record<string, Listener<A>>> {
  const merged: Record<string, Listener<A>> = {};
  for (const table of tables)
    for (const [id, listener] of Object.entries(table ?? {})) {
      if (Object.hasOwn(merged, id)) throw new Error(`two features register the listener "${id}"`);
      merged[id] = listener;
    }
  return merged;
}
