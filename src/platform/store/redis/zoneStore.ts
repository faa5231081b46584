import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { WorkspaceKey } from "../../workspaces/workspace.js";
import type { AddZoneResult, NewZone, Zone, ZoneRepository } from "../contract/zones.js";
import { binaryCompare, LuaScript, RedisStore, storedJson } from "./lua.js";

/**
 * Each workspace's named zones in Redis, with SqliteZoneStore's answers (the contract:
 * contract/zones.ts). One hash per workspace (`""`, the single workspace, included: its key ends
 * with the colon), keyed by the folded name, so a name is unique in its workspace by the hash
 * itself and an uninstall deletes one key.
 *
 * Keys (after the prefix):
 *   zones:<workspace>   hash nameKey → the zone (JSON)
 */

const zoneJson = storedJson.pipe(
  z.object({
    id: z.string(),
    workspace: z.string(),
    name: z.string(),
    nameKey: z.string(),
    latitude: z.number(),
    longitude: z.number(),
    radiusMeters: z.number(),
    createdBy: z.string().optional(),
    createdAt: z.number(),
  }),
);

function toZone(text: string): Zone {
  const row = zoneJson.parse(text);
  const zone: Zone = {
    id: row.id,
    workspace: row.workspace,
    name: row.name,
    nameKey: row.nameKey,
    latitude: row.latitude,
    longitude: row.longitude,
    radiusMeters: row.radiusMeters,
    createdAt: row.createdAt,
  };
  if (row.createdBy !== undefined) zone.createdBy = row.createdBy;
  return zone;
}

/** A zone as its hash holds it. */
export const zoneText = (zone: Zone): string => JSON.stringify(zone);

/** A workspace's hash. */
export const zonesKey = (prefix: string, workspace: WorkspaceKey) => `${prefix}zones:${workspace}`;

/** KEYS: the workspace's hash. ARGV: name key, the zone → {1} added, or {0, the zone already there}. */
const ADD_ZONE = new LuaScript(`
local existing = redis.call('HGET', KEYS[1], ARGV[1])
if existing then return {0, existing} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return {1}
`);

/** KEYS: the workspace's hash. ARGV: name key → the zone removed, or false. */
const REMOVE_ZONE = new LuaScript(`
local existing = redis.call('HGET', KEYS[1], ARGV[1])
if existing then redis.call('HDEL', KEYS[1], ARGV[1]) end
return existing
`);

/** KEYS: the workspace's hash → how many zones it held; the hash is gone. */
const DELETE_WORKSPACE = new LuaScript(`
local count = redis.call('HLEN', KEYS[1])
redis.call('DEL', KEYS[1])
return count
`);

const addReply = z.union([z.tuple([z.literal(1)]), z.tuple([z.literal(0), z.string()])]);

/** A workspace's zones by name key (SQLite's ORDER BY name_key). */
const byNameKey = (a: Zone, b: Zone) => binaryCompare(a.nameKey, b.nameKey);

export class RedisZoneStore extends RedisStore implements ZoneRepository {
  private key(workspace: WorkspaceKey): string {
    return zonesKey(this.prefix, workspace);
  }

  async zones(workspace: WorkspaceKey): Promise<Zone[]> {
    return (await this.redis.hvals(this.key(workspace))).map(toZone).sort(byNameKey);
  }

  async zonesOf(workspaces: readonly WorkspaceKey[]): Promise<Map<WorkspaceKey, Zone[]>> {
    const distinct = [...new Set(workspaces)];
    const pipeline = this.redis.pipeline();
    for (const workspace of distinct) pipeline.hvals(this.key(workspace));
    const replies = (await pipeline.exec()) ?? [];
    const found = new Map<WorkspaceKey, Zone[]>();
    distinct.forEach((workspace, i) => {
      const [error, values] = replies[i] ?? [new Error("no reply")];
      if (error) throw error;
      const zones = z.array(z.string()).parse(values).map(toZone).sort(byNameKey);
      if (zones.length > 0) found.set(workspace, zones);
    });
    return found;
  }

  async addZone(input: NewZone): Promise<AddZoneResult> {
    const zone: Zone = {
      id: randomUUID(),
      workspace: input.workspace,
      name: input.name,
      nameKey: input.nameKey,
      latitude: input.latitude,
      longitude: input.longitude,
      radiusMeters: input.radiusMeters,
      createdAt: input.createdAt ?? this.now(),
    };
    if (input.createdBy !== undefined) zone.createdBy = input.createdBy;
    const reply = addReply.parse(
      await ADD_ZONE.run(this.redis, [this.key(zone.workspace)], [zone.nameKey, zoneText(zone)]),
    );
    return reply[0] === 1 ? { added: true, zone } : { added: false, existing: toZone(reply[1]) };
  }

  async removeZone(workspace: WorkspaceKey, nameKey: string): Promise<Zone | undefined> {
    const removed = await REMOVE_ZONE.run(this.redis, [this.key(workspace)], [nameKey]);
    // A Lua false comes back as null.
    return removed === null ? undefined : toZone(z.string().parse(removed));
  }

  async deleteWorkspace(workspace: WorkspaceKey): Promise<number> {
    return z.number().parse(await DELETE_WORKSPACE.run(this.redis, [this.key(workspace)], []));
  }
}
