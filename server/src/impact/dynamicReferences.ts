/**
 * The dynamic references a resource's properties hold (`{{resolve:ssm:/app/version}}`). A change
 * set compares them as text, so a new value stored behind one is not deployed on its own; but
 * CloudFormation resolves every reference of a resource anew when it updates that resource for any
 * reason, so the new value goes live then, unannounced (docs/update-rules.md#dynamic-references).
 */
import { isSymbolic, isValueObject, type Value } from '../evaluate/value';

/** How many references one change lists; a resource holding more is rare, and its hover says so by the count. */
const MAX_LISTED = 20;

/** The dynamic references a value holds, each once, in the order they are met. */
export function dynamicReferencesIn(value: Value): string[] {
  const found = new Set<string>();
  // An explicit stack: a hostile template may nest values deeply.
  const stack: Value[] = [value];
  while (stack.length > 0 && found.size < MAX_LISTED) {
    const current = stack.pop()!;
    if (isSymbolic(current)) {
      if (current.kind === 'unknown' && current.key.startsWith('dynamic:')) found.add(current.key.slice('dynamic:'.length));
      else if (current.kind === 'concat') for (let i = current.parts.length - 1; i >= 0; i--) if (typeof current.parts[i] !== 'string') stack.push(current.parts[i] as Value);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push(current[i]!);
    } else if (isValueObject(current)) {
      const values = Object.values(current);
      for (let i = values.length - 1; i >= 0; i--) stack.push(values[i]!);
    }
  }
  return [...found];
}
