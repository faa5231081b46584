import { exampleIn } from "../../../../commands/examples.js";
/** `/fleet zones`: the workspace's zones, and the answers to adding and removing one (pure). */
import { type Language, messages, number } from "../../../../i18n/index.js";
import { mrkdwn } from "../../../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { noticeMessage } from "../../../../platform/slack/views/notice.js";
import { fitMrkdwn, userText } from "../../../../platform/slack/views/text.js";
import type { Zone } from "../../../../platform/store/contract/zones.js";
import { openStreetMapUrl } from "../../../../platform/vehicles/openStreetMap.js";

/** At most this many zones are listed in one message (a section holds 3,000 characters). */
const ZONES_SHOWN = 40;

const coordinate = (lang: Language, value: number) =>
  number(lang, value, { maxFractionDigits: 5, minFractionDigits: 4 });

const code = (text: string) => `\`${text}\``;

export function zoneListMessage(zones: readonly Zone[], lang: Language): SlackMessage {
  const w = messages(lang).vehicleWatch;
  if (zones.length === 0) {
    const text = w.zonesEmpty({
      example: code(w.exampleAdd()),
    });
    return noticeMessage(text, w.zonesHint());
  }
  const lines = zones.slice(0, ZONES_SHOWN).map((z) =>
    w.zoneLine({
      name: userText(z.name, 60),
      latitude: coordinate(lang, z.latitude),
      longitude: coordinate(lang, z.longitude),
      radius: number(lang, z.radiusMeters),
      map: `<${openStreetMapUrl(z.latitude, z.longitude)}|${w.mapLink()}>`,
    }),
  );
  const more = zones.length - ZONES_SHOWN;
  if (more > 0) lines.push(messages(lang).common.andMore(more));
  const header = `*${w.zonesTitle()}* · ${w.zonesCount(zones.length)}`;
  return {
    text: fitMrkdwn(`${w.zonesTitle()}: ${w.zonesCount(zones.length)}`, 300),
    blocks: [
      {
        type: "section",
        block_id: "zones.list",
        text: mrkdwn(fitMrkdwn([header, ...lines].join("\n"), 2900)),
      },
      { type: "context", block_id: "zones.hint", elements: [mrkdwn(w.zonesHint())] },
    ],
  };
}

export interface ZoneAddedFacts {
  zone: Zone;
  /** Centred on a vehicle: its plate and the position's time (a date token). */
  vehicle?: { plate: string; when: string };
  /** The channels (ids) of this workspace whose subscriptions watch Zone alerts. */
  watchedIn: readonly string[];
}

export function zoneAddedMessage(facts: ZoneAddedFacts, lang: Language): SlackMessage {
  const w = messages(lang).vehicleWatch;
  const z = facts.zone;
  const text = w.zoneAdded({
    name: userText(z.name, 60),
    latitude: coordinate(lang, z.latitude),
    longitude: coordinate(lang, z.longitude),
    radius: number(lang, z.radiusMeters),
  });
  const details: string[] = [];
  if (facts.vehicle)
    details.push(
      w.zoneAddedAt({ vehicle: `*${userText(facts.vehicle.plate, 30)}*`, when: facts.vehicle.when }),
    );
  details.push(
    facts.watchedIn.length > 0
      ? w.zoneWatchedBy({ channels: facts.watchedIn.map((c) => `<#${c}>`).join(", ") })
      : w.zoneNotWatched({ example: code(w.exampleSubscribe()) }),
  );
  return noticeMessage(text, details.join(" "));
}

export function zoneExistsMessage(existing: Zone, lang: Language): SlackMessage {
  const w = messages(lang).vehicleWatch;
  return noticeMessage(
    `:warning: ${w.zoneExists({
      name: userText(existing.name, 60),
      example: code(exampleIn(`/fleet zones remove ${existing.name.replace(/`/g, "'")}`, lang)),
    })}`,
  );
}

export function zoneRemovedMessage(zone: Zone, lang: Language): SlackMessage {
  return noticeMessage(messages(lang).vehicleWatch.zoneRemoved({ name: userText(zone.name, 60) }));
}

export function zoneNotFoundMessage(name: string, zones: readonly Zone[], lang: Language): SlackMessage {
  const w = messages(lang).vehicleWatch;
  const known =
    zones.length > 0
      ? w.zoneKnown({
          names: zones
            .slice(0, 20)
            .map((z) => userText(z.name, 60))
            .join(", "),
        })
      : w.zoneNoZonesYet();
  return noticeMessage(`:warning: ${w.zoneNotFound({ name: userText(name, 60), known })}`);
}

export function zoneTooManyMessage(max: number, lang: Language): SlackMessage {
  return noticeMessage(`:warning: ${messages(lang).vehicleWatch.zoneTooMany({ max })}`);
}

export function zoneVehicleMessage(
  problem: "no-position" | "private",
  plate: string,
  lang: Language,
): SlackMessage {
  const w = messages(lang).vehicleWatch;
  const vehicle = `*${userText(plate, 30)}*`;
  return noticeMessage(
    `:warning: ${problem === "private" ? w.zoneVehiclePrivate({ vehicle }) : w.zoneVehicleNoPosition({ vehicle })}`,
  );
}
