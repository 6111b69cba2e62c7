/**
 * Constructs that moved or were renamed in the app. The CDK derives a resource's logical id from
 * its construct path, so a construct given another id or another parent gets a new logical id:
 * to CloudFormation that is a removal and an addition, which replaces the resource (the old one
 * deleted, or kept by its DeletionPolicy). Told apart from a real removal and addition by the
 * pair: the same resource type, and the same construct id or the same properties.
 */
import type { ResourceChange } from '../impact/types';
import { samePlainValue, type TemplateModel } from '../template';
import { constructId, type ConstructIndex } from './constructs';

export interface ConstructRename {
  resourceType: string;
  /** The removed resource: its logical id and construct path in the old app. */
  from: { logicalId: string; path: string };
  /** The added resource in the new app. */
  to: { logicalId: string; path: string };
}

/** The renamed constructs among a report's removals and additions, each removal paired with at most one addition. */
export function constructRenames(
  changes: readonly ResourceChange[],
  constructs: { old: ConstructIndex; new: ConstructIndex },
  models: { old: TemplateModel; new: TemplateModel },
): ConstructRename[] {
  const added = changes.filter((c) => c.action === 'Add' && constructs.new.has(c.logicalId));
  const taken = new Set<string>();
  const renames: ConstructRename[] = [];
  for (const removal of changes) {
    if (removal.action !== 'Remove') continue;
    const from = constructs.old.get(removal.logicalId);
    if (from === undefined) continue;
    const candidates = added.filter((a) => a.resourceType === removal.resourceType && !taken.has(a.logicalId));
    const sameId = candidates.filter((a) => constructId(constructs.new.get(a.logicalId)!.path) === constructId(from.path));
    const sameProperties = candidates.filter((a) => sameResourceProperties(models.old, removal.logicalId, models.new, a.logicalId));
    // Only an unambiguous pair is called a rename: one candidate by id, else one by properties.
    const match = sameId.length === 1 ? sameId[0] : sameId.length === 0 && sameProperties.length === 1 ? sameProperties[0] : undefined;
    if (match === undefined) continue;
    taken.add(match.logicalId);
    renames.push({ resourceType: removal.resourceType, from: { logicalId: removal.logicalId, path: from.path }, to: { logicalId: match.logicalId, path: constructs.new.get(match.logicalId)!.path } });
  }
  return renames;
}

function sameResourceProperties(oldModel: TemplateModel, oldId: string, newModel: TemplateModel, newId: string): boolean {
  const before = oldModel.resources.get(oldId)?.properties;
  const after = newModel.resources.get(newId)?.properties;
  if (before === undefined || after === undefined) return before === after;
  return samePlainValue(before, after);
}
