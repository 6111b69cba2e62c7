/**
 * Which other stacks a template reads through `Fn::GetStackOutput` with a literal stack name in
 * its own Region: what a caller with an account reads (`DescribeStacks`) so that those outputs
 * resolve (docs/update-rules.md#cross-stack-values). Found without recursion: templates are
 * hostile input.
 */
import type { TemplateNode } from '../template/ast';

/** The stack names that `Fn::GetStackOutput` names literally, without a Region or RoleArn, each once. */
export function stackOutputStacks(root: TemplateNode | undefined): string[] {
  const names = new Set<string>();
  const stack: TemplateNode[] = root ? [root] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'seq') stack.push(...node.items);
    if (node.kind !== 'map') continue;
    for (const entry of node.entries) {
      if (entry.key === 'Fn::GetStackOutput' && entry.value.kind === 'map') {
        const keys = new Map(entry.value.entries.map((e) => [e.key, e.value]));
        const name = keys.get('StackName');
        if (name?.kind === 'scalar' && typeof name.value === 'string' && name.value !== '' && !keys.has('Region') && !keys.has('RoleArn')) names.add(name.value);
      }
      stack.push(entry.value);
    }
  }
  return [...names].sort();
}
