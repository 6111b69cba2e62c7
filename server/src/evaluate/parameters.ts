/**
 * Parameter values: `UsePreviousValue`, else the supplied value, else Default, else the
 * deployed stack's value (known or not); converted by the parameter's Type and checked against
 * its constraints when supplied or defaulted.
 */
import { RE2JS } from 're2js';
import type { MapNode, Range, TemplateNode } from '../template/ast';
import type { ParameterDecl, TemplateModel } from '../template/model';
import type { ErrorSink } from './errors';
import { literalString } from './strings';
import type { EvaluationContext, ResolvedParameter } from './types';
import { UnknownValue, type Value } from './value';

/** Resolves every declared parameter; reports constraint violations and undeclared supplied names (a value that is missing is not an error here). */
export function resolveParameters(model: TemplateModel, ctx: EvaluationContext, sink: ErrorSink): Map<string, ResolvedParameter> {
  const resolved = new Map<string, ResolvedParameter>();
  for (const decl of model.parameters.values()) resolved.set(decl.name, resolveParameter(decl, ctx, sink));
  const undeclared = Object.keys(ctx.parameters).filter((name) => !model.parameters.has(name));
  if (undeclared.length > 0) {
    const range = model.root?.range ?? { start: 0, end: 0 };
    sink.add(`Parameters: [${undeclared.join(', ')}] do not exist in the template`, { start: range.start, end: range.start }, 'parameter-not-declared');
  }
  return resolved;
}

function resolveParameter(decl: ParameterDecl, ctx: EvaluationContext, sink: ErrorSink): ResolvedParameter {
  const { name } = decl;
  const previous = ctx.previous?.values.get(name);
  // UsePreviousValue keeps the deployed value whatever the new Default says (a supplied value for
  // the same name is ignored, as CloudFormation refuses a request that gives both).
  if (previous !== undefined && ctx.previous?.usePrevious?.has(name)) return { name, value: previous, source: 'previous' };
  let raw: string | undefined;
  let source: ResolvedParameter['source'] = 'missing';
  let range: Range = decl.keyRange;
  const supplied: unknown = Object.prototype.hasOwnProperty.call(ctx.parameters, name) ? ctx.parameters[name] : undefined;
  if (typeof supplied === 'string' || typeof supplied === 'number' || typeof supplied === 'boolean') {
    // Values are strings on the wire; a caller handing over a number or a boolean means its text.
    raw = String(supplied);
    source = 'supplied';
  } else if (decl.default !== undefined) {
    raw = defaultText(decl.default);
    if (raw !== undefined) {
      source = 'default';
      range = decl.default.range;
    } else {
      sink.add(`Parameter '${name}' has a Default that is not a string, a number or a list of them`, decl.default.range, 'parameter-default');
    }
  }
  if (raw === undefined) {
    // No value at hand: the stack keeps the value it has (UsePreviousValue). Whether that is an
    // error (a parameter the deployed template did not have) is decided by the comparison, which
    // knows both templates; constraints were checked when that value was deployed.
    if (previous !== undefined) return { name, value: previous, source: 'previous' };
    return { name, value: currentValueOf(name), source: 'missing' };
  }
  const type = (decl.type ?? 'String').trim();
  if (type.startsWith('AWS::SSM::Parameter::Value<')) {
    return { name, value: new UnknownValue('ssm:' + raw, `SSM parameter ${raw}`), source };
  }
  const isList = type === 'CommaDelimitedList' || type.startsWith('List<');
  // CloudFormation trims the members of list-typed values: "a, b" is ["a", "b"].
  const items = isList ? raw.split(',').map((s) => s.trim()) : [raw];
  checkConstraints(decl, type, items, range, sink);
  const value: Value = isList ? items.map(literalString) : literalString(raw);
  return { name, value, source };
}

/**
 * The value of a parameter that has none here: the deployed stack's current value, unknown to
 * the analysis. It is keyed by the name alone, so both templates of a comparison read the same
 * unknown and equal expressions over it compare equal.
 */
export function currentValueOf(name: string): UnknownValue {
  return new UnknownValue('param:' + name, `the current value of parameter ${name}`);
}

// CloudFormation takes the Default as text; YAML may have read it as a number, a boolean or a list.
function defaultText(node: TemplateNode): string | undefined {
  if (node.kind === 'scalar') return node.value === null ? '' : String(node.value);
  if (node.kind === 'seq') {
    const items: string[] = [];
    for (const item of node.items) {
      if (item.kind !== 'scalar' || item.value === null) return undefined;
      items.push(String(item.value));
    }
    return items.join(',');
  }
  return undefined;
}

function entry(node: MapNode, key: string): TemplateNode | undefined {
  for (const e of node.entries) if (e.key === key) return e.value;
  return undefined;
}

function scalarOf(node: TemplateNode | undefined): string | undefined {
  return node?.kind === 'scalar' && node.value !== null ? String(node.value) : undefined;
}

function numberOf(node: TemplateNode | undefined): number | undefined {
  const text = scalarOf(node);
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** Checks AllowedValues, AllowedPattern, length and value bounds the way CloudFormation does before it starts a deployment. */
function checkConstraints(decl: ParameterDecl, type: string, items: string[], range: Range, sink: ErrorSink): void {
  const { name, node } = decl;
  const description = scalarOf(entry(node, 'ConstraintDescription'));
  const fail = (message: string): void => {
    sink.add(description !== undefined ? `Parameter ${name} failed to satisfy constraint: ${description}` : message, range, 'parameter-constraint');
  };
  const isNumber = type === 'Number' || type === 'List<Number>';
  const allowed = entry(node, 'AllowedValues');
  const allowedSet = allowed?.kind === 'seq' ? new Set(allowed.items.map(scalarOf).filter((s): s is string => s !== undefined)) : undefined;
  const patternText = scalarOf(entry(node, 'AllowedPattern'));
  // Patterns come from templates someone else wrote: RE2 matches in linear time, so a pattern
  // like `(a+)+b` cannot stall the editor the way a backtracking engine would.
  let pattern: RE2JS | undefined;
  if (patternText !== undefined) {
    try {
      pattern = RE2JS.compile(patternText);
    } catch {
      pattern = undefined; // Java regular expressions are not all valid RE2 ones (back-references); skip rather than guess.
    }
  }
  const minLength = numberOf(entry(node, 'MinLength'));
  const maxLength = numberOf(entry(node, 'MaxLength'));
  const minValue = numberOf(entry(node, 'MinValue'));
  const maxValue = numberOf(entry(node, 'MaxValue'));
  for (const item of items) {
    if (isNumber) {
      const n = item.trim() === '' ? NaN : Number(item);
      if (!Number.isFinite(n)) {
        fail(`Parameter '${name}' must be a number`);
        return;
      }
      if (minValue !== undefined && n < minValue) return fail(`Parameter '${name}' must be a number not less than ${minValue}`);
      if (maxValue !== undefined && n > maxValue) return fail(`Parameter '${name}' must be a number not greater than ${maxValue}`);
    }
    if (allowedSet !== undefined && !allowedSet.has(item)) return fail(`Parameter '${name}' must be one of AllowedValues`);
    if (pattern !== undefined && !pattern.matches(item)) return fail(`Parameter '${name}' must match pattern ${patternText}`);
    if (minLength !== undefined && item.length < minLength) return fail(`Parameter '${name}' must contain at least ${minLength} characters`);
    if (maxLength !== undefined && item.length > maxLength) return fail(`Parameter '${name}' must contain at most ${maxLength} characters`);
  }
}
