/**
 * The template's resources as connectors see them (SAM's `ResourceResolver`), with what each
 * resource's `DependsOn` names indexed. Each connector makes what depended on it depend on what
 * it generated; finding those by walking every resource made a template with a connector per
 * function quadratic, so the index is kept as resources come in and their `DependsOn` changes.
 */
import type { ConnectableResource, ResourceResolver } from '../../model/connectable';

export class ConnectableResources implements ResourceResolver {
  private readonly byId = new Map<string, ConnectableResource>();
  /** Where each id first came, which stays its place in `all()` (a Map keeps a replaced key where it was). */
  private readonly places = new Map<string, number>();
  /** For each name some resource's `DependsOn` holds, the ids of those resources. */
  private readonly dependents = new Map<string, Set<string>>();
  /** The connector being translated, which the edits are made for. */
  editor = '';

  /** Takes a resource in, or in place of the one of that id. */
  set(logicalId: string, resource: ConnectableResource): void {
    const previous = this.byId.get(logicalId);
    if (previous) this.unindex(logicalId, previous.dependsOn());
    if (!this.places.has(logicalId)) this.places.set(logicalId, this.places.size);
    this.byId.set(logicalId, {
      type: resource.type,
      properties: resource.properties,
      dependsOn: () => resource.dependsOn(),
      setDependsOn: (value) => {
        this.unindex(logicalId, resource.dependsOn());
        resource.setDependsOn(value);
        this.index(logicalId, resource.dependsOn());
      },
    });
    this.index(logicalId, resource.dependsOn());
  }

  get(logicalId: string): ConnectableResource | undefined {
    return this.byId.get(logicalId);
  }

  all(): [string, ConnectableResource][] {
    return [...this.byId];
  }

  /** The resources whose `DependsOn` names `logicalId` now, in the order of `all()`. */
  dependentsOf(logicalId: string): [string, ConnectableResource][] {
    const ids = this.dependents.get(logicalId);
    if (ids === undefined || ids.size === 0) return [];
    return [...ids].sort((a, b) => this.places.get(a)! - this.places.get(b)!).map((id) => [id, this.byId.get(id)!]);
  }

  private index(logicalId: string, dependsOn: unknown): void {
    for (const name of namesIn(dependsOn)) {
      let ids = this.dependents.get(name);
      if (ids === undefined) this.dependents.set(name, (ids = new Set()));
      ids.add(logicalId);
    }
  }

  private unindex(logicalId: string, dependsOn: unknown): void {
    for (const name of namesIn(dependsOn)) this.dependents.get(name)?.delete(logicalId);
  }
}

/** The names a `DependsOn` value holds: one string, or the strings of a list. */
function namesIn(dependsOn: unknown): string[] {
  if (typeof dependsOn === 'string') return [dependsOn];
  return Array.isArray(dependsOn) ? dependsOn.filter((name): name is string => typeof name === 'string') : [];
}
