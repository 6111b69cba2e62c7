/**
 * Nested stacks' child templates cross to the analysis worker once per version of their text: a
 * parent being typed into names the same children at every keystroke, up to 50 of them and 1 MB
 * each. The main thread remembers what the running worker holds of each document's children and
 * sends only what changed (`ChildTemplatesSent`); the worker keeps what it was sent and rebuilds
 * the full set from each update (`ChildTemplatesHeld`). A new worker holds nothing, so the main
 * thread starts again with it.
 */
import type { ChildTemplate, DeployedChildStack } from '../../impact';
import type { ChildTemplatesUpdate, ChildTemplatesSide, NestedChildren } from './messages';

/** What one worker holds of one document's children. */
interface HeldChildren {
  newChildren: Map<string, ChildTemplate>;
  oldChildren: Map<string, ChildTemplate>;
  deployedChildren: Record<string, DeployedChildStack> | undefined;
}

function emptyHeld(): HeldChildren {
  return { newChildren: new Map(), oldChildren: new Map(), deployedChildren: undefined };
}

/** Whether two reads of a child say the same. */
function sameChild(a: ChildTemplate | undefined, b: ChildTemplate): boolean {
  if (a === undefined) return false;
  return 'text' in a ? 'text' in b && a.text === b.text : 'problem' in b && a.problem === b.problem;
}

/** The update of one side from what the worker holds to `children`, which `held` then holds. */
function sideUpdate(held: Map<string, ChildTemplate>, children: Record<string, ChildTemplate>): ChildTemplatesSide {
  const changed: Record<string, ChildTemplate> = {};
  const paths = Object.keys(children);
  for (const path of paths) {
    const child = children[path]!;
    if (sameChild(held.get(path), child)) continue;
    changed[path] = child;
    held.set(path, child);
  }
  for (const path of [...held.keys()]) if (!Object.hasOwn(children, path)) held.delete(path);
  return { paths, changed };
}

/** The main thread's record of what the running worker holds; made anew with each worker. */
export class ChildTemplatesSent {
  private readonly byDocument = new Map<string, HeldChildren>();

  /** The update that brings the worker's copy of a document's children to `children`. */
  update(uri: string, children: NestedChildren): ChildTemplatesUpdate {
    let held = this.byDocument.get(uri);
    if (held === undefined) this.byDocument.set(uri, (held = emptyHeld()));
    const update: ChildTemplatesUpdate = {
      templatePath: children.templatePath,
      newSide: sideUpdate(held.newChildren, children.newChildren),
      oldSide: sideUpdate(held.oldChildren, children.oldChildren),
      keepsDeployed: children.deployedChildren === held.deployedChildren,
    };
    if (!update.keepsDeployed && children.deployedChildren !== undefined) update.deployedChildren = children.deployedChildren;
    held.deployedChildren = children.deployedChildren;
    return update;
  }

  /** A document closed: the worker drops its children too. */
  forget(uri: string): void {
    this.byDocument.delete(uri);
  }
}

/** The worker's copy of each document's children, as the updates bring them. */
export class ChildTemplatesHeld {
  private readonly byDocument = new Map<string, HeldChildren>();

  /** The document's children after `update`. */
  apply(uri: string, update: ChildTemplatesUpdate): NestedChildren {
    let held = this.byDocument.get(uri);
    if (held === undefined) this.byDocument.set(uri, (held = emptyHeld()));
    const side = (kept: Map<string, ChildTemplate>, { paths, changed }: ChildTemplatesSide): Record<string, ChildTemplate> => {
      for (const [path, child] of Object.entries(changed)) kept.set(path, child);
      const wanted = new Set(paths);
      for (const path of [...kept.keys()]) if (!wanted.has(path)) kept.delete(path);
      const out: Record<string, ChildTemplate> = {};
      for (const path of paths) {
        const child = kept.get(path);
        // A path the worker never got (it cannot happen while both sides agree) reads as not read.
        out[path] = child ?? { problem: 'not-read' };
      }
      return out;
    };
    if (!update.keepsDeployed) held.deployedChildren = update.deployedChildren;
    const children: NestedChildren = { templatePath: update.templatePath, newChildren: side(held.newChildren, update.newSide), oldChildren: side(held.oldChildren, update.oldSide) };
    if (held.deployedChildren !== undefined) children.deployedChildren = held.deployedChildren;
    return children;
  }

  forget(uri: string): void {
    this.byDocument.delete(uri);
  }
}
