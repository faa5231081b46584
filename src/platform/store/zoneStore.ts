import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { WorkspaceKey } from "../workspaces/workspace.js";
import type { Synchronous } from "./contract/synchronous.js";
import type { AddZoneResult, NewZone, Zone, ZoneRepository } from "./contract/zones.js";
import type { Db } from "./database.js";

/**
 * Each workspace's named zones in SQLite (the contract: contract/zones.ts; the table of migration
 * 16). The name key is unique per workspace by the table's own constraint, so two people adding
 * the same name at once make one zone.
 */

const zoneRow = z.object({
  workspace: z.string(),
  id: z.string(),
  name: z.string(),
  name_key: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  radius_meters: z.number(),
  created_by: z.string().nullable(),
  created_at: z.number(),
});

/** A stored row as the record (the migrator reads every zone through it too). */
export function toZone(raw: unknown): Zone {
  const row = zoneRow.parse(raw);
  const zone: Zone = {
    id: row.id,
    workspace: row.workspace,
    name: row.name,
    nameKey: row.name_key,
    latitude: row.latitude,
    longitude: row.longitude,
    radiusMeters: row.radius_meters,
    createdAt: row.created_at,
  };
  if (row.created_by !== null) zone.createdBy = row.created_by;
  return zone;
}

export class SqliteZoneStore implements Synchronous<ZoneRepository> {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.s = {
      zonesOf: db.prepare("SELECT * FROM zones WHERE workspace = ? ORDER BY name_key"),
      zone: db.prepare("SELECT * FROM zones WHERE workspace = ? AND name_key = ?"),
      insert: db.prepare(
        `INSERT INTO zones (workspace, id, name, name_key, latitude, longitude, radius_meters, created_by, created_at)
           VALUES (@workspace, @id, @name, @name_key, @latitude, @longitude, @radius_meters, @created_by, @created_at)
           ON CONFLICT (workspace, name_key) DO NOTHING`,
      ),
      remove: db.prepare("DELETE FROM zones WHERE workspace = ? AND name_key = ?"),
      removeAll: db.prepare("DELETE FROM zones WHERE workspace = ?"),
    };
  }

  /** The workspace's zones, by name key. */
  zones(workspace: WorkspaceKey): Zone[] {
    return this.s.zonesOf.all(workspace).map(toZone);
  }

  /** Zones of several workspaces at once, keyed by workspace; a workspace without any is absent. */
  zonesOf(workspaces: readonly WorkspaceKey[]): Map<WorkspaceKey, Zone[]> {
    const read = this.db.transaction(() => {
      const found = new Map<WorkspaceKey, Zone[]>();
      for (const workspace of new Set(workspaces)) {
        const zones = this.zones(workspace);
        if (zones.length > 0) found.set(workspace, zones);
      }
      return found;
    });
    return read();
  }

  /** Adds a zone, unless the workspace has one of that name key (then that one, unchanged). */
  addZone(input: NewZone): AddZoneResult {
    const run = this.db.transaction((): AddZoneResult => {
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
      const inserted = this.s.insert.run({
        workspace: zone.workspace,
        id: zone.id,
        name: zone.name,
        name_key: zone.nameKey,
        latitude: zone.latitude,
        longitude: zone.longitude,
        radius_meters: zone.radiusMeters,
        created_by: zone.createdBy ?? null,
        created_at: zone.createdAt,
      });
      if (inserted.changes > 0) return { added: true, zone };
      return { added: false, existing: toZone(this.s.zone.get(input.workspace, input.nameKey)) };
    });
    return run.immediate();
  }

  /** Removes the workspace's zone of that name key; the zone removed, or undefined. */
  removeZone(workspace: WorkspaceKey, nameKey: string): Zone | undefined {
    const run = this.db.transaction(() => {
      const row = this.s.zone.get(workspace, nameKey);
      if (row === undefined) return undefined;
      this.s.remove.run(workspace, nameKey);
      return toZone(row);
    });
    return run.immediate();
  }

  /** Drops every zone of the workspace; how many. */
  deleteWorkspace(workspace: WorkspaceKey): number {
    return this.s.removeAll.run(workspace).changes;
  }
}
