import type { WorkspaceKey } from "../../workspaces/workspace.js";

/**
 * A workspace's named zones (geofences) for `Zone` alerts: `/fleet zones add <name> <lat>,<lon>
 * [radius=<m>]`. A zone belongs to one workspace (two workspaces sharing a fleet account keep
 * their own), its name is unique in the workspace with case and diacritics ignored (`nameKey`,
 * folded by the caller), and an uninstall deletes the workspace's zones. Implemented by
 * SqliteZoneStore (zoneStore.ts) and RedisZoneStore (redis/zoneStore.ts).
 */
export interface Zone {
  /** Stable id (a UUID): incidents name the zone by it, so a renamed or re-added zone is another. */
  id: string;
  workspace: WorkspaceKey;
  /** As the user typed it (shown). */
  name: string;
  /** The name folded (lower case, no diacritics, spaces squeezed): unique per workspace. */
  nameKey: string;
  latitude: number;
  longitude: number;
  /** Metres, 50–50,000 (the caller checks the range; the store keeps what it is given). */
  radiusMeters: number;
  /** The Slack user who added it; absent for a zone fleetbot made (the sandbox's demo zone). */
  createdBy?: string;
  createdAt: number;
}

export type NewZone = Omit<Zone, "id" | "createdAt"> & { createdAt?: number };

export type AddZoneResult = { added: true; zone: Zone } | { added: false; existing: Zone };

export interface ZoneRepository {
  /** The workspace's zones, by name key. */
  zones(workspace: WorkspaceKey): Promise<Zone[]>;
  /** Zones of several workspaces at once (a sweep), keyed by workspace; a workspace without any is absent. */
  zonesOf(workspaces: readonly WorkspaceKey[]): Promise<Map<WorkspaceKey, Zone[]>>;
  /** Adds a zone, unless the workspace has one with the same nameKey (then that one is answered, unchanged). */
  addZone(input: NewZone): Promise<AddZoneResult>;
  /** Removes the workspace's zone of that nameKey; the zone removed, or undefined when none. */
  removeZone(workspace: WorkspaceKey, nameKey: string): Promise<Zone | undefined>;
  /** Drops every zone of an uninstalled workspace; how many. The single workspace's ("") too when asked. */
  deleteWorkspace(workspace: WorkspaceKey): Promise<number>;
}
