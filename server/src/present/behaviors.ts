/**
 * Update behaviours in the words of the CloudFormation documentation.
 */
import type { PropertyBehavior, UpdateBehavior } from '../spec/types';

/** What an update behaviour means: `Update requires: No interruption`, ... */
export function behaviorText(behavior: UpdateBehavior): string {
  switch (behavior) {
    case 'no-interruption':
      return 'Update requires: No interruption';
    case 'some-interruption':
      return 'Update requires: Some interruptions';
    case 'conditional-replacement':
      return 'Update requires: Replacement in some cases (conditional)';
    case 'replacement':
      return 'Update requires: Replacement — changing this creates a new resource';
    case 'not-updatable':
      return 'Cannot be updated: changing this makes the update fail';
    default:
      return 'Update behaviour unknown: not described by the resource specification (assume the worst)';
  }
}

/** Where an answer came from, when that qualifies it: a custom resource's provider, a type or property the spec lacks. */
export function behaviorSourceNote(source: PropertyBehavior['source'], custom: boolean): string {
  if (custom || source === 'custom-resource') return ' (custom resource: the provider decides)';
  if (source === 'unknown-type') return ' (resource type not in the specification)';
  if (source === 'unknown-property') return ' (property not in the specification)';
  return '';
}
