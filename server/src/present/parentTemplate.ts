/**
 * A nested stack's template opened on its own, in words: where its parameter values came from
 * (the parent that passes them), or why no parent's values are used.
 */
import { listSome } from './lists';

/** Parents named in the note before the rest are counted. */
const PARENTS_SHOWN = 4;

/** Where the parameter values came from, beside the baseline on the verdict lens: `parameters from parent network-parent.yaml`. */
export function parentParametersLabel(parent: string): string {
  return `parameters from parent ${parent}`;
}

/** The note when several templates nest this one and none is chosen: their values are not used. */
export function ambiguousParentsNote(parents: readonly string[]): string {
  return `Several templates nest this one (${listSome(parents, PARENTS_SHOWN)}): no parent's parameter values are used. Choose one with the setting cfnImpact.nested.parentTemplate.`;
}

/** The note when the chosen parent does not nest this template, or cannot be read. */
export function parentNotUsedNote(parent: string, reason: 'not-nesting' | 'unreadable'): string {
  return reason === 'not-nesting'
    ? `The parent template ${parent} has no AWS::CloudFormation::Stack whose TemplateURL is this file: its parameter values are not used.`
    : `The parent template ${parent} (cfnImpact.nested.parentTemplate) cannot be read: its parameter values are not used.`;
}
