import type { App, BlockAction, ButtonAction } from "@slack/bolt";
import { ACTIONS } from "../actionIds.js";
import { parseTransportButtonValue, removeCancelledMessage } from "../views/etransport.js";

/**
 * Cancel next to `/etransport remove`'s confirm button: nothing is sent to the fleet
 * service; the question is replaced by a line saying the transport was kept.
 */
export function registerRemoveCancel(app: App): void {
  app.action<BlockAction<ButtonAction>>(ACTIONS.transportRemoveCancel, async ({ ack, action, respond }) => {
    await ack();
    const value = parseTransportButtonValue(action.value);
    await respond({
      replace_original: true,
      ...(value ? removeCancelledMessage(value.u) : { text: "Not removed.", blocks: [] }),
    });
  });
}
