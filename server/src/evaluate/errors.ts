/**
 * Evaluation problems as values, collected once each.
 */
import type { Range, TemplateError } from '../template/ast';

/** Collects evaluation errors, dropping exact repeats (a fragment expanded by `Fn::ForEach` shares its ranges). */
export class ErrorSink {
  readonly errors: TemplateError[] = [];
  private readonly seen = new Set<string>();

  /** Records an error unless the same message was already recorded at the same range. */
  add(message: string, range: Range, code: string, severity: 'error' | 'warning' = 'error'): void {
    const key = `${range.start}:${range.end}:${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.errors.push({ message, range, code, severity });
  }
}

/** CloudFormation's message for a reference to a name that is neither a parameter, a pseudo parameter nor a resource. */
export function unresolvedMessage(name: string, block: 'Resources' | 'Outputs'): string {
  return `Template format error: Unresolved resource dependencies [${name}] in the ${block} block of the template`;
}
