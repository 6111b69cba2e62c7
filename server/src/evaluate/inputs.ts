/**
 * What an expression reads: the parameters, resources, attributes, mappings and
 * conditions it references, found on the syntax tree without evaluating anything.
 */
import type { TemplateNode } from '../template/ast';
import type { TemplateModel } from '../template/model';
import { PSEUDO_PARAMETER_NAMES } from './pseudo';
import { subVariables } from './sub';

/** The names an expression depends on, each list in order of first appearance, without repeats. */
export interface ExpressionInputs {
  parameters: string[];
  pseudoParameters: string[];
  /** Resources whose physical id is read (`Ref`, `${Resource}`). */
  resources: string[];
  /** Resource attributes read (`Fn::GetAtt`, `${Resource.Attribute}`), as `LogicalId.Attribute`. */
  attributes: string[];
  mappings: string[];
  conditions: string[];
}

/**
 * The inputs of an expression, including those reached through the conditions it uses:
 * when `Fn::If` names a condition, the parameters and mappings that decide that
 * condition are inputs too, since changing them can change the expression's value.
 */
export function expressionInputs(node: TemplateNode, model: TemplateModel): ExpressionInputs {
  const found = {
    parameters: new Set<string>(),
    pseudoParameters: new Set<string>(),
    resources: new Set<string>(),
    attributes: new Set<string>(),
    mappings: new Set<string>(),
    conditions: new Set<string>(),
  };
  const name = (n: string): void => {
    if (model.parameters.has(n)) found.parameters.add(n);
    else if (PSEUDO_PARAMETER_NAMES.has(n)) found.pseudoParameters.add(n);
    else if (model.resources.has(n)) found.resources.add(n);
  };
  const condition = (n: string): void => {
    if (found.conditions.has(n)) return;
    found.conditions.add(n);
    const decl = model.conditions.get(n);
    if (decl !== undefined) stack.push(decl.node);
  };
  const stack: TemplateNode[] = [node];
  while (stack.length > 0) {
    const cur = stack.pop()!;
    if (cur.kind === 'scalar') continue;
    if (cur.kind === 'seq') {
      for (let i = cur.items.length - 1; i >= 0; i--) stack.push(cur.items[i]);
      continue;
    }
    const single = cur.entries.length === 1 ? cur.entries[0] : undefined;
    const arg = single?.value;
    const items = arg?.kind === 'seq' ? arg.items : undefined;
    const text = (n: TemplateNode | undefined): string | undefined => (n?.kind === 'scalar' && typeof n.value === 'string' ? n.value : undefined);
    switch (single?.key) {
      case 'Ref': {
        const target = text(arg);
        if (target !== undefined) name(target);
        else if (arg !== undefined) stack.push(arg);
        continue;
      }
      case 'Condition': {
        const target = text(arg);
        if (target !== undefined) {
          condition(target);
          continue;
        }
        break;
      }
      case 'Fn::GetAtt': {
        const whole = text(arg);
        if (whole !== undefined) {
          const dot = whole.indexOf('.');
          if (dot > 0) found.attributes.add(whole);
          continue;
        }
        if (items?.length === 2) {
          const id = text(items[0]);
          const attribute = text(items[1]);
          if (id !== undefined && attribute !== undefined) found.attributes.add(`${id}.${attribute}`);
          else {
            if (id !== undefined && attribute === undefined) found.attributes.add(`${id}.*`);
            stack.push(items[1], items[0]);
          }
          continue;
        }
        break;
      }
      case 'Fn::Sub': {
        const template = text(arg) ?? text(items?.[0]);
        if (template !== undefined) {
          const local = new Set(items?.[1]?.kind === 'map' ? items[1].entries.map((e) => e.key) : []);
          for (const variable of subVariables(template)) {
            if (local.has(variable)) continue;
            const dot = variable.indexOf('.');
            if (dot > 0 && !model.parameters.has(variable) && model.resources.has(variable.slice(0, dot))) found.attributes.add(variable);
            else name(variable);
          }
          if (items?.[1] !== undefined) stack.push(items[1]);
          continue;
        }
        break;
      }
      case 'Fn::FindInMap': {
        const mapName = text(items?.[0]);
        if (mapName !== undefined) found.mappings.add(mapName);
        break;
      }
      case 'Fn::If': {
        const conditionName = text(items?.[0]);
        if (conditionName !== undefined) condition(conditionName);
        if (items !== undefined) for (let i = items.length - 1; i >= 1; i--) stack.push(items[i]);
        continue;
      }
      default:
        break;
    }
    for (let i = cur.entries.length - 1; i >= 0; i--) stack.push(cur.entries[i].value);
  }
  return {
    parameters: [...found.parameters],
    pseudoParameters: [...found.pseudoParameters],
    resources: [...found.resources],
    attributes: [...found.attributes],
    mappings: [...found.mappings],
    conditions: [...found.conditions],
  };
}
