/**
 * What "before" is for a document: the baseline chosen for it, else the stack the settings link
 * it to, else the default the settings name (git HEAD or none).
 */
import { lookupByGlob } from '../../git/glob';
import type { BaselineChoice } from '../protocol';
import type { DocumentSettings } from '../settings';

/** The choice in effect for a document at `relativePath` (relative to its workspace folder). */
export function effectiveChoice(chosen: BaselineChoice | undefined, settings: DocumentSettings, relativePath: string): BaselineChoice {
  if (chosen) return chosen;
  const linked = lookupByGlob(settings.links, relativePath);
  if (linked) return { kind: 'stack', stackName: linked };
  return settings.defaultBaseline === 'git' ? { kind: 'git', ref: 'HEAD' } : { kind: 'none' };
}
