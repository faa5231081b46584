/**
 * `/fleet zones`: list, add and remove the workspace's zones (thin: the grammar read the command,
 * the views word the answers). A zone belongs to the workspace, whoever adds it; adding one needs
 * a linked fleet account only for `at <vehicle>` (the vehicle's position comes from the user's own
 * vehicle list).
 */

import type { FleetCommand } from "../../../commands/types.js";
import { parseVehicleRef } from "../../../commands/vehicles.js";
import { messages } from "../../../i18n/catalogue.js";
import { slackDate } from "../../../i18n/index.js";
import type { Language } from "../../../i18n/language.js";
import { ephemeral, noAccountMessage } from "../../../platform/slack/listeners/responses.js";
import { noticeMessage } from "../../../platform/slack/views/notice.js";
import {
  resolutionProblemText,
  vehicleProblemsMrkdwn,
} from "../../../platform/slack/views/vehicleProblems.js";
import { resolveVehicle } from "../../../platform/vehicles/vehicleRefs.js";
import type { AlertDeps } from "../../context.js";
import { vehicleKindsOf, zoneNameKey } from "../vehicleWatch/watches.js";
import type { AlertCommandArgs } from "./listeners.js";
import {
  zoneAddedMessage,
  zoneExistsMessage,
  zoneListMessage,
  zoneNotFoundMessage,
  zoneRemovedMessage,
  zoneTooManyMessage,
  zoneVehicleMessage,
} from "./views/zones.js";

/** At most this many zones per workspace: one sweep checks every vehicle against each. */
export const MAX_ZONES = 200;
/** How long `at <vehicle>` waits for a vehicle list still loading (Slack wants an answer within 3 s). */
const VEHICLES_WAIT_MS = 2_000;

type ZoneCommand = Extract<FleetCommand, { kind: "zones-list" | "zones-add" | "zones-remove" }>;

async function languageOf(args: AlertCommandArgs, deps: AlertDeps): Promise<Language> {
  return args.language ?? (await deps.users.languageOf(args.userId));
}

export async function zonesCommand(
  args: AlertCommandArgs,
  command: ZoneCommand,
  deps: AlertDeps,
): Promise<void> {
  const language = await languageOf(args, deps);
  switch (command.kind) {
    case "zones-list":
      await args.ack(ephemeral(zoneListMessage(await deps.zones.list(), language)));
      return;
    case "zones-remove": {
      const removed = await deps.zones.remove(zoneNameKey(command.name));
      await args.ack(
        ephemeral(
          removed
            ? zoneRemovedMessage(removed, language)
            : zoneNotFoundMessage(command.name, await deps.zones.list(), language),
        ),
      );
      return;
    }
    case "zones-add":
      await addZone(args, command, deps, language);
      return;
  }
}

async function addZone(
  args: AlertCommandArgs,
  command: Extract<ZoneCommand, { kind: "zones-add" }>,
  deps: AlertDeps,
  language: Language,
): Promise<void> {
  const zones = await deps.zones.list();
  const nameKey = zoneNameKey(command.name);
  const existing = zones.find((z) => z.nameKey === nameKey);
  if (existing) {
    await args.ack(ephemeral(zoneExistsMessage(existing, language)));
    return;
  }
  if (zones.length >= MAX_ZONES) {
    await args.ack(ephemeral(zoneTooManyMessage(MAX_ZONES, language)));
    return;
  }
  let centre = command.centre;
  let vehicle: { plate: string; when: string } | undefined;
  if (!centre) {
    const found = await vehicleCentre(args, command.vehicle ?? "", deps, language);
    if (!found) return;
    centre = found.centre;
    vehicle = found.vehicle;
  }
  const result = await deps.zones.add({
    name: command.name,
    nameKey,
    latitude: centre.latitude,
    longitude: centre.longitude,
    radiusMeters: command.radiusMeters,
    createdBy: args.userId,
  });
  if (!result.added) {
    // Added meanwhile by someone else (or another replica): theirs stands.
    await args.ack(ephemeral(zoneExistsMessage(result.existing, language)));
    return;
  }
  const watchedIn = (await deps.subscriptions.list())
    .filter((s) => vehicleKindsOf(s).includes("zone"))
    .map((s) => s.channel);
  await args.ack(
    ephemeral(zoneAddedMessage({ zone: result.zone, ...(vehicle ? { vehicle } : {}), watchedIn }, language)),
  );
}

/** The position of the vehicle typed, from the user's own vehicle list; undefined once the user was told why not. */
async function vehicleCentre(
  args: AlertCommandArgs,
  typed: string,
  deps: AlertDeps,
  language: Language,
): Promise<
  { centre: { latitude: number; longitude: number }; vehicle: { plate: string; when: string } } | undefined
> {
  const account = await deps.users.accountOf(args.userId);
  if (!account) {
    await args.ack(ephemeral(noAccountMessage(language)));
    return undefined;
  }
  const list = await deps.vehicles.within(account.username, args.userId, VEHICLES_WAIT_MS);
  if (!list) {
    await args.ack(ephemeral(noticeMessage(messages(language).vehicleWatch.zoneVehiclesLoading())));
    return undefined;
  }
  const parsed = parseVehicleRef(typed);
  const like = list.map((v) => ({
    vehicleId: v.vehicleId,
    plate: v.vehicleRegistrationNumber ?? "",
    name: v.vehicleName ?? "",
  }));
  const resolution = parsed.ok ? resolveVehicle(parsed.ref, like) : undefined;
  if (resolution?.kind !== "found") {
    const problem =
      resolution && resolution.kind !== "all"
        ? resolutionProblemText(resolution, language)
        : messages(language).grammar.zoneWhere({ given: `\`${typed}\`` });
    await args.ack(ephemeral(noticeMessage(`:warning: ${vehicleProblemsMrkdwn([problem], language)}`)));
    return undefined;
  }
  const v = list.find((x) => x.vehicleId === resolution.vehicle.vehicleId);
  const plate = resolution.vehicle.plate || resolution.vehicle.name;
  if (v?.isPrivate) {
    await args.ack(ephemeral(zoneVehicleMessage("private", plate, language)));
    return undefined;
  }
  if (v?.latitude === undefined || v.longitude === undefined || (v.latitude === 0 && v.longitude === 0)) {
    await args.ack(ephemeral(zoneVehicleMessage("no-position", plate, language)));
    return undefined;
  }
  const zone = deps.users.zoneAtAck(args.userId);
  const when = v.gpsDate ? slackDate(language, v.gpsDate.getTime(), zone) : "?";
  return { centre: { latitude: v.latitude, longitude: v.longitude }, vehicle: { plate, when } };
}
