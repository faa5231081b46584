/**
 * Every Block Kit action_id, callback_id and input block_id fleetbot uses, in one place,
 * so listeners and views cannot drift apart. Values are stable: messages already posted
 * in Slack keep sending them after an upgrade.
 */

/** Buttons and menus on messages. */
export const ACTIONS = {
  // queue and progress
  cancelTask: "task.cancel",
  refreshQueue: "queue.refresh",
  // pagination of long answers (value carries the task id and the page)
  pageNext: "page.next",
  pagePrevious: "page.previous",
  // vehicle data
  showPosition: "vehicle.where",
  openReportModal: "report.open",
  // e-Transport
  transportStart: "transport.start",
  transportPause: "transport.pause",
  transportEnd: "transport.end",
  transportEdit: "transport.edit",
  transportRemove: "transport.remove",
  transportRemoveCancel: "transport.remove.cancel",
  transportShow: "transport.show",
  transportListNext: "transport.list.next",
  transportListPrevious: "transport.list.previous",
  // alerts
  alertMute: "alert.mute",
  alertUnmute: "alert.unmute",
  // scheduled reports (value: the schedule's id)
  schedulePause: "schedule.pause",
  scheduleResume: "schedule.resume",
  scheduleRunNow: "schedule.run",
  scheduleRemove: "schedule.remove",
  // home tab
  homeLogin: "home.login",
  homeLogout: "home.logout",
} as const;

/** Modal callback ids. */
export const VIEWS = {
  login: "view.login",
  report: "view.report",
  transportCreate: "view.transport.create",
  transportEdit: "view.transport.edit",
} as const;

/** Input blocks (block_id) and their elements (action_id) inside modals. */
export const INPUTS = {
  loginUsername: { block: "login.username", action: "value" },
  loginPassword: { block: "login.password", action: "value" },
  reportKind: { block: "report.kind", action: "value" },
  reportVehicles: { block: "report.vehicles", action: "value" },
  reportFrom: { block: "report.from", action: "value" },
  reportTo: { block: "report.to", action: "value" },
  reportMinMinutes: { block: "report.min", action: "value" },
  transportVehicle: { block: "transport.vehicle", action: "value" },
  transportUit: { block: "transport.uit", action: "value" },
  transportVat: { block: "transport.vat", action: "value" },
  transportValidityStart: { block: "transport.validity.start", action: "value" },
  transportValidityEnd: { block: "transport.validity.end", action: "value" },
  transportStart: { block: "transport.start", action: "value" },
  transportEnd: { block: "transport.end", action: "value" },
  transportStartLocation: { block: "transport.start.location", action: "value" },
  transportEndLocation: { block: "transport.end.location", action: "value" },
  transportTrailer1: { block: "transport.trailer1", action: "value" },
  transportTrailer2: { block: "transport.trailer2", action: "value" },
  transportNotes: { block: "transport.notes", action: "value" },
} as const;
