/**
 * English, vehicle watch: the vehicle alerts (power cut, zones, idling, speeding, offline, towed,
 * out of hours, reefer temperature), their resolutions, and `/fleet zones`. Values are inserted as
 * given: escape user text for mrkdwn before passing it; durations are `duration` of format.ts.
 */
import { count } from "../plural.js";

export const vehicleWatch = {
  powerCutLine: ({ volts, threshold, lasted }: { volts: string; threshold: string; lasted: string }) =>
    `*External power at ${volts} V* (below ${threshold} V): the GPS unit runs on its backup battery, for *${lasted}* so far.`,
  powerCutTransport: ({ uit }: { uit: string }) =>
    `*Transport ${uit} is In Progress:* when the backup battery runs out the unit goes silent, and from then on its positions do not reach ANAF (the fine risk starts).`,
  powerCutAdvice: () => "Check the GPS unit's wiring and the vehicle's battery.",
  insideZoneLine: ({ zone, radius, lasted }: { zone: string; radius: string; lasted: string }) =>
    `*Inside ${zone}* (within ${radius} m of its centre), for *${lasted}* so far.`,
  idleLine: ({ lasted, limit }: { lasted: string; limit: string }) =>
    `*Standing with the engine running for ${lasted}* (your limit: ${limit}).`,
  idleAdvice: () => "Idling burns fuel for nothing: ask the driver to switch the engine off while waiting.",
  speedingLine: ({ speed, limit, peak }: { speed: string; limit: string; peak: string }) =>
    `*Driving at ${speed} km/h*, above your ${limit} km/h limit (highest seen: ${peak} km/h).`,
  offlineLine: ({ lasted, limit }: { lasted: string; limit: string }) =>
    `*No position for ${lasted}* (your limit: ${limit}).`,
  offlineAdvice: () =>
    "The GPS unit may have lost power or signal: have it checked before the vehicle leaves on a transport.",
  towedLine: ({ distance }: { distance: string }) =>
    `*Moved ${distance} with the engine off* between two checks.`,
  towedAdvice: () =>
    "Call the driver: a vehicle moving with the ignition off is being towed or carried, or stolen.",
  afterHoursLine: ({ speed, hours }: { speed: string; hours: string }) =>
    `*Moving at ${speed} km/h outside the working hours* (${hours}).`,
  temperatureLine: ({
    value,
    min,
    max,
    lasted,
  }: {
    value: string;
    min: string;
    max: string;
    lasted: string;
  }) => `*Reefer at ${value} °C*, outside ${min}..${max} °C for *${lasted}* so far.`,
  temperatureAdvice: () => "Check the reefer unit and its doors: the load may be at risk.",
  /** The evidence's own time (gpsDate or the reading), not the check's. */
  seenAt: ({ when }: { when: string }) => `Seen ${when}`,
  mapLink: () => "map",
  privatePlace: () => "Private mode: the position is not shown.",
  /** Resolution lines. */
  zoneStayed: ({ zone, lasted }: { zone: string; lasted: string }) => `Stayed in *${zone}* for *${lasted}*.`,
  speedingPeak: ({ peak }: { peak: string }) => `Highest speed seen: *${peak} km/h*.`,
  reasonPrivate: () => "the vehicle is in private mode: it is not watched for this",
  reasonTransport: () => "a transport is In Progress on the vehicle: its Stalled alert watches it instead",
  reasonGone: () =>
    "no longer watched: the subscription or the zone changed, or the vehicle is no longer listed",
  alertText: ({ mark, title, vehicle }: { mark: string; title: string; vehicle: string }) =>
    `${mark} ${title}: vehicle ${vehicle}`,
  resolvedText: ({ title, vehicle, lasted }: { title: string; vehicle: string; lasted: string }) =>
    `✅ Resolved: ${title}, ${vehicle} — lasted ${lasted}`,
  resolvedLine: ({ from, to, lasted }: { from: string; to: string; lasted: string }) =>
    `From ${from} to ${to} — lasted *${lasted}*`,
  buttonMuteVehicle: () => "Mute this vehicle 24 h",
  /** A grouped alert of vehicle kinds. */
  groupTitle: () => "Vehicle alerts",
  vehicles: (n: number) => count("en", n, { one: "vehicle", other: "vehicles" }),
  groupButtonsInThread: () => "Each vehicle's Mute button is in the thread.",

  // ---------- a subscription's vehicle watches, in its description
  watchPowerCut: ({ volts }: { volts: string }) => `PowerCut below ${volts} V`,
  watchZones: ({ zones }: { zones: string }) => `Zone: ${zones}`,
  watchEveryZone: () => "Zone: every zone of the workspace",
  watchIdle: ({ duration }: { duration: string }) => `Idle after ${duration}`,
  watchSpeeding: ({ kmh }: { kmh: string }) => `Speeding above ${kmh} km/h`,
  watchOffline: ({ duration }: { duration: string }) => `Offline after ${duration}`,
  watchTowed: () => "Towed (moved over 500 m with the engine off)",
  watchAfterHours: ({ hours }: { hours: string }) => `AfterHours outside ${hours}`,
  watchTemperature: ({ min, max, duration }: { min: string; max: string; duration: string }) =>
    `Temperature outside ${min}..${max} °C for ${duration}`,

  // ---------- /fleet zones
  zonesTitle: () => "Zones of this workspace",
  zonesEmpty: ({ example }: { example: string }) =>
    `This workspace has no zones yet. Add one with its centre and radius: ${example}, or at a vehicle's position: \`/fleet zones add Depou at B-101-FLT\`.`,
  zoneLine: ({
    name,
    latitude,
    longitude,
    radius,
    map,
  }: {
    name: string;
    latitude: string;
    longitude: string;
    radius: string;
    map: string;
  }) => `*${name}* · ${latitude}, ${longitude} · radius ${radius} m · ${map}`,
  zonesHint: () =>
    "Channels subscribed to `Zone` alerts are told when a vehicle arrives in a zone, and how long it stayed when it leaves: `/fleet alerts subscribe Zone` (or `zones=Depou,Client`).",
  zonesCount: (n: number) => count("en", n, { one: "zone", other: "zones" }),
  zoneAdded: ({
    name,
    latitude,
    longitude,
    radius,
  }: {
    name: string;
    latitude: string;
    longitude: string;
    radius: string;
  }) => `:white_check_mark: Zone *${name}* added: ${latitude}, ${longitude}, radius ${radius} m.`,
  zoneAddedAt: ({ vehicle, when }: { vehicle: string; when: string }) =>
    `Centred on ${vehicle}'s position of ${when}.`,
  zoneWatchedBy: ({ channels }: { channels: string }) => `Watched now by the Zone alerts of ${channels}.`,
  zoneNotWatched: ({ example }: { example: string }) =>
    `No channel of this workspace subscribes to \`Zone\` alerts yet: ${example}.`,
  zoneExists: ({ name, example }: { name: string; example: string }) =>
    `There is already a zone named *${name}* (names ignore case and diacritics). Pick another name, or remove it first: ${example}.`,
  zoneRemoved: ({ name }: { name: string }) =>
    `:wastebasket: Zone *${name}* removed. Its open Zone alerts, if any, are resolved at the next alert check.`,
  zoneNotFound: ({ name, known }: { name: string; known: string }) =>
    `This workspace has no zone named *${name}*.${known}`,
  zoneKnown: ({ names }: { names: string }) => ` Its zones: ${names}.`,
  zoneTooMany: ({ max }: { max: number }) =>
    `A workspace can have at most ${count("en", max, { one: "zone", other: "zones" })}: remove one first (\`/fleet zones\` lists them).`,
  zoneVehicleNoPosition: ({ vehicle }: { vehicle: string }) =>
    `${vehicle} has no known position: give the zone's centre instead, e.g. \`/fleet zones add Depou 44.4268,26.1025\`.`,
  zoneVehiclePrivate: ({ vehicle }: { vehicle: string }) =>
    `${vehicle} is in private mode: its position is not used. Give the zone's centre instead, e.g. \`/fleet zones add Depou 44.4268,26.1025\`.`,
  zoneUnknownNames: ({ names, known }: { names: string; known: string }) =>
    `This workspace has no zone named ${names}.${known} Add it first: \`/fleet zones add <name> <lat>,<lon>\`.`,
  zoneExample: ({ example }: { example: string }) => `Example: ${example}`,
  /** Commands as examples, in the reader's command words. */
  exampleAdd: () => "/fleet zones add Depou 44.4326,25.9723 radius=500",
  exampleSubscribe: () => "/fleet alerts subscribe Zone",
  zoneNoZonesYet: () => " It has no zones yet.",
  zoneVehiclesLoading: () =>
    "Your vehicle list is still loading from the GPS platform: send the command again in a few seconds.",
};
