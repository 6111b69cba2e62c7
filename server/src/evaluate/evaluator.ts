/**
 * The expression evaluator: walks a template node and resolves parameters, pseudo
 * parameters, mappings, conditions and intrinsic functions into a Value.
 */
import type { MapNode, Range, SeqNode, TemplateNode } from '../template/ast';
import type { TemplateModel } from '../template/model';
import { setEntry } from '../template/tree';
import { unresolvedMessage, type ErrorSink } from './errors';
import * as fn from './functions';
import { isCycle, stronglyConnectedComponents } from './graph';
import { isMacroInvocation, macroNames } from './macros';
import { ModuleIndex, type ModuleReference } from './modules';
import { compactKey, derivedUnknown, notationOf, parameterOf, pseudoParameterOf, symbolDependencies, valueKey } from './render';
import { parseSubString, type SubPart } from './sub';
import { concatenate, literalString, scalarText } from './strings';
import type { CrossStackValues, EvaluationNote, ResolvedParameter } from './types';
import { ResourceAttribute, ResourceRef, UnknownValue, isSymbolic, type LookupChoices, type Symbolic, type Value, type ValueObject } from './value';
import { deployTimeValueWords } from './pseudo';

/** A range, or where to look for a narrower one when an error needs it (narrowing inside a string costs a scan). */
type RangeSource = Range | { within: Range; needle: string };

/** What `Ref: AWS::NoValue` evaluates to: the enclosing property or list item disappears. */
export const NO_VALUE: unique symbol = Symbol('AWS::NoValue');
export type Evaluated = Value | typeof NO_VALUE;

/**
 * How deeply expressions may nest before evaluation stops with an error. Real templates
 * stay far below (an inline state machine definition reaches about 30); the bound keeps
 * hostile input from costing more than a bounded amount of stack.
 */
export const MAX_EXPRESSION_DEPTH = 150;

/** The section an expression sits in: it decides which references are legal and how errors are worded. */
export type Block = 'Resources' | 'Outputs' | 'Conditions';

/** Where an expression is evaluated. */
export interface Scope {
  block: Block;
  /**
   * Whether the value will be deployed: false inside the branch of `Fn::If` that is not
   * taken and inside resources or outputs whose Condition is false. Such expressions are
   * still evaluated, because CloudFormation validates the whole template, but a reference
   * from them to a resource whose Condition is false is not an error.
   */
  live: boolean;
  /** Collects the logical ids referenced from taken branches (undefined: do not collect). */
  deps: Set<string> | undefined;
}

/** Scopes for branches that are validated but not deployed, one per block (they hold no state). */
const DEAD_SCOPES: Readonly<Record<Block, Scope>> = {
  Resources: { block: 'Resources', live: false, deps: undefined },
  Outputs: { block: 'Outputs', live: false, deps: undefined },
  Conditions: { block: 'Conditions', live: false, deps: undefined },
};

export interface EvaluatorOptions {
  /** Whether `Transform: AWS::LanguageExtensions` is declared, which enables its functions. */
  languageExtensions: boolean;
  /** Exports and outputs of other stacks, when the caller read them: imports resolve to them. */
  crossStack?: CrossStackValues;
}

const FIND_IN_MAP_SHAPE = 'Template error: every Fn::FindInMap object requires three parameters, the map name, map key and the attribute for return value';
const GET_ATT_SHAPE = 'Template error: every Fn::GetAtt object requires two non-empty parameters, the resource name and the resource attribute';
const REF_SHAPE = 'Template error: every Ref object must have a single String value.';
const SUB_SHAPE =
  "Template error: One or more Fn::Sub intrinsic functions don't specify expected arguments. Specify a string as first argument, and an optional second argument to specify a mapping of values to replace in the string";
const IF_SHAPE = 'Template error: Fn::If requires a list argument with three elements: a condition name, a value if true and a value if false';
/** How many of the values a lookup known only at deploy time may give its description names. */
const SHOWN_SELECTABLE = 6;
const CONDITION_SHAPE = 'Template error: a condition must be Fn::And, Fn::Equals, Fn::Not, Fn::Or or a Condition reference';

/** Functions CloudFormation knows but that need a transform or belong to `Rules`; used to word errors precisely. */
const LANGUAGE_EXTENSION_FUNCTIONS = new Set(['Fn::Length', 'Fn::ToJsonString']);
/** The rule-specific functions that only the assertions of the `Rules` section understand (which is never evaluated here). */
const RULE_FUNCTIONS = new Set(['Fn::Contains', 'Fn::EachMemberEquals', 'Fn::EachMemberIn', 'Fn::RefAll', 'Fn::ValueOf', 'Fn::ValueOfAll']);

/**
 * Functions whose argument must be a list or a map, or a name: when a macro's output is the whole
 * argument they can only be applied once the macro has run. (The others take any value, a macro's
 * output included, as it is.)
 */
const FUNCTIONS_OF_MACRO_OUTPUT = new Set([
  'Ref',
  'Fn::GetAtt',
  'Fn::Sub',
  'Fn::If',
  'Fn::FindInMap',
  'Fn::Join',
  'Fn::Select',
  'Fn::Split',
  'Fn::Cidr',
  'Fn::GetStackOutput',
  'Fn::Equals',
  'Fn::Not',
  'Fn::And',
  'Fn::Or',
]);

/** Whether a function's list argument has its usual length and a macro's output at a position that must hold a written value. */
function macroOutputAt(arg: TemplateNode, length: number, position: number): boolean {
  return arg.kind === 'seq' && arg.items.length === length && isMacroInvocation(arg.items[position]);
}

/** Evaluates expressions of one template with fixed parameter values. */
export class Evaluator {
  /** Condition values once `evaluateConditions` has run; `'unknown'` when they depend on deploy-time values. */
  readonly conditionStates = new Map<string, fn.Tri>();
  /** The canonical key of each condition's value (see `ConditionValue`). */
  readonly conditionKeys = new Map<string, string>();
  /** Whether each resource will exist; filled by the caller before resources are evaluated. */
  readonly resourceActive = new Map<string, boolean>();
  /** Resources whose Condition is undecided: evaluated as present (`resourceActive` is true), since they may exist. */
  readonly resourceUndecided = new Set<string>();
  private readonly refCache = new Map<string, ResourceRef>();
  private readonly subCache = new Map<string, SubPart[]>();
  private mappingIndex: Map<string, MapNode> | undefined;
  /** What lookups with keys known only at deploy time may select, by the keys that are known (`selectable`). */
  private readonly selectableCache = new Map<string, Selectable>();
  private outputValueNodes: Set<TemplateNode> | undefined;
  private modules: ModuleIndex | undefined;
  private readonly noteSet = new Set<string>();

  constructor(
    readonly model: TemplateModel,
    readonly parameters: ReadonlyMap<string, ResolvedParameter>,
    readonly pseudo: ReadonlyMap<string, Value>,
    readonly sink: ErrorSink,
    readonly notes: EvaluationNote[],
    readonly options: EvaluatorOptions,
  ) {}

  /** Adds a note for the verdict once (the same note written in several places counts once, at the first). */
  note(note: EvaluationNote, range?: Range): void {
    const { range: _written, ...data } = note;
    const key = JSON.stringify(data);
    if (this.noteSet.has(key)) return;
    this.noteSet.add(key);
    this.notes.push(range ? { ...note, range } : note);
  }

  // ---------------------------------------------------------------- conditions

  /**
   * Evaluates every condition once, dependencies first, so that chains of any length
   * need no recursion between conditions. Conditions on a cycle are reported and false.
   */
  evaluateConditions(): void {
    const names = [...this.model.conditions.keys()];
    const indexOf = new Map(names.map((n, i) => [n, i]));
    const edges = names.map((name) => {
      const out: number[] = [];
      for (const used of conditionReferences(this.model.conditions.get(name)!.node)) {
        const i = indexOf.get(used);
        if (i !== undefined) out.push(i);
      }
      return out;
    });
    for (const component of stronglyConnectedComponents(edges)) {
      if (isCycle(component, edges)) {
        const members = component.sort((a, b) => a - b).map((i) => names[i]);
        const first = this.model.conditions.get(members[0])!;
        this.sink.add(`Circular dependency between conditions: [${members.join(', ')}]`, first.keyRange, 'circular-condition');
        for (const m of members) this.conditionStates.set(m, false);
        continue;
      }
      const name = names[component[0]];
      const decl = this.model.conditions.get(name)!;
      const { state, key } = this.conditionExpression(decl.node, 0);
      this.conditionStates.set(name, state);
      this.conditionKeys.set(name, key);
    }
  }

  /** The conditions whose value depends on deploy-time values, each with the canonical key of what it computes. */
  undecidedConditions(): Map<string, string> {
    const result = new Map<string, string>();
    for (const [name, state] of this.conditionStates) if (state === 'unknown') result.set(name, this.conditionKeys.get(name)!);
    return result;
  }

  /** The value of a named condition, reporting an undeclared name at `range`. */
  conditionNamed(name: string, range: Range, context: string): fn.Tri {
    const state = this.conditionStates.get(name);
    if (state !== undefined) return state;
    if (!this.model.conditions.has(name)) this.sink.add(`Template format error: Unresolved condition dependency ${name} in ${context}`, range, 'undefined-condition');
    return false;
  }

  private conditionExpression(node: TemplateNode, depth: number): ConditionValue {
    if (depth > MAX_EXPRESSION_DEPTH) {
      this.sink.add(`Template error: expression nested more than ${MAX_EXPRESSION_DEPTH} levels deep`, node.range, 'depth-limit');
      return DECIDED_FALSE;
    }
    const single = node.kind === 'map' && node.entries.length === 1 ? node.entries[0] : undefined;
    if (single === undefined) {
      this.sink.add(CONDITION_SHAPE, node.range, 'malformed-condition');
      return DECIDED_FALSE;
    }
    const arg = single.value;
    const items = arg.kind === 'seq' ? arg.items : undefined;
    switch (single.key) {
      case 'Condition': {
        if (arg.kind !== 'scalar' || typeof arg.value !== 'string') break;
        const state = this.conditionNamed(arg.value, arg.range, 'the Conditions block of the template');
        return state === 'unknown' ? { state, key: this.conditionKeys.get(arg.value)! } : decided(state);
      }
      case 'Fn::Equals': {
        if (items?.length !== 2) {
          this.sink.add('Template error: Fn::Equals requires a list argument with two elements', node.range, 'malformed-intrinsic');
          return DECIDED_FALSE;
        }
        const scope: Scope = { block: 'Conditions', live: true, deps: undefined };
        const a = this.evaluate(items[0], scope, depth + 2);
        const b = this.evaluate(items[1], scope, depth + 2);
        const left = a === NO_VALUE ? '' : a;
        const right = b === NO_VALUE ? '' : b;
        const state = fn.equalsTri(left, right);
        return state === 'unknown' ? { state, key: compactKey(`eq(${valueKey(left)},${valueKey(right)})`) } : decided(state);
      }
      case 'Fn::Not': {
        if (items?.length !== 1) {
          this.sink.add('Template error: Fn::Not requires a list argument with one condition', node.range, 'malformed-intrinsic');
          return DECIDED_FALSE;
        }
        const inner = this.conditionExpression(items[0], depth + 2);
        return inner.state === 'unknown' ? { state: 'unknown', key: compactKey(`not(${inner.key})`) } : decided(!inner.state);
      }
      case 'Fn::And':
      case 'Fn::Or': {
        if (items === undefined || items.length < 2 || items.length > 10) {
          this.sink.add(`Template error: ${single.key} requires a list argument with between 2 and 10 conditions`, node.range, 'malformed-intrinsic');
          return DECIDED_FALSE;
        }
        const values = items.map((item) => this.conditionExpression(item, depth + 2));
        const states = values.map((v) => v.state);
        const state = single.key === 'Fn::And' ? fn.andTri(states) : fn.orTri(states);
        if (state !== 'unknown') return decided(state);
        // Only the undecided operands matter once the result is undecided: the decided ones are all neutral.
        const operands = values.filter((v) => v.state === 'unknown').map((v) => v.key);
        if (operands.length === 1) return { state, key: operands[0] };
        return { state, key: compactKey(`${single.key === 'Fn::And' ? 'and' : 'or'}(${operands.join(',')})`) };
      }
      default:
        break;
    }
    this.sink.add(CONDITION_SHAPE, node.range, 'malformed-condition');
    return DECIDED_FALSE;
  }

  // ---------------------------------------------------------------- expressions

  /** Evaluates any node: plain data stays as written, intrinsic functions are resolved, `AWS::NoValue` removes entries. */
  evaluate(node: TemplateNode, scope: Scope, depth: number): Evaluated {
    if (depth > MAX_EXPRESSION_DEPTH) {
      this.sink.add(`Template error: expression nested more than ${MAX_EXPRESSION_DEPTH} levels deep`, node.range, 'depth-limit');
      return new UnknownValue('invalid:depth', 'an expression nested too deeply');
    }
    switch (node.kind) {
      case 'scalar':
        return typeof node.value === 'string' ? literalString(node.value) : node.value;
      case 'seq': {
        const items = node.items;
        const out: Value[] = [];
        for (let i = 0; i < items.length; i++) {
          const v = this.evaluate(items[i], scope, depth + 1);
          if (v !== NO_VALUE) out.push(v);
        }
        return out;
      }
      case 'map': {
        const entries = node.entries;
        if (entries.length === 1) {
          const key = entries[0].key;
          if (key === 'Ref' || key.startsWith('Fn::')) return this.intrinsic(key, entries[0].value, node, scope, depth + 1);
        }
        const out: ValueObject = {};
        for (let i = 0; i < entries.length; i++) {
          const entry = entries[i];
          // A map holding Fn::Transform is replaced by the macro's output, whatever else it holds.
          if (entry.key === 'Fn::Transform') return this.transform(entry.value, node, scope, depth + 1);
          const v = this.evaluate(entry.value, scope, depth + 1);
          if (v !== NO_VALUE) setEntry(out, entry.key, v);
        }
        return out;
      }
    }
  }

  /** Evaluates a node where `AWS::NoValue` has no enclosing entry to remove: it reads as absent (`undefined`). */
  evaluatePresent(node: TemplateNode, scope: Scope): Value | undefined {
    const v = this.evaluate(node, scope, 0);
    return v === NO_VALUE ? undefined : v;
  }

  private intrinsic(name: string, arg: TemplateNode, node: MapNode, scope: Scope, depth: number): Evaluated {
    if (FUNCTIONS_OF_MACRO_OUTPUT.has(name) && isMacroInvocation(arg)) return this.ofMacroOutput(name, arg, scope, depth);
    switch (name) {
      case 'Ref':
        return this.ref(arg, node, scope, depth);
      case 'Fn::GetAtt':
        return this.getAtt(arg, node, scope, depth);
      case 'Fn::Sub':
        return this.sub(arg, node, scope, depth);
      case 'Fn::If':
        // A condition name written by a macro: which branch is taken is known only once it has run.
        if (macroOutputAt(arg, 3, 0)) return this.ofMacroOutput(name, arg, scope, depth);
        return this.fnIf(arg, node, scope, depth);
      case 'Fn::FindInMap':
        return this.findInMap(arg, node, scope, depth);
      case 'Fn::Join': {
        if (macroOutputAt(arg, 2, 0)) return this.ofMacroOutput(name, arg, scope, depth);
        const args = this.fixedArguments(arg, 2, scope, depth);
        return args ? this.result(name, fn.join(args[0], args[1]), node, scope) : this.malformed(name, fn.JOIN_SHAPE, node);
      }
      case 'Fn::Select': {
        const args = this.fixedArguments(arg, 2, scope, depth);
        return args ? this.result(name, fn.select(args[0], args[1]), node, scope) : this.malformed(name, fn.SELECT_SHAPE, node);
      }
      case 'Fn::Split': {
        if (macroOutputAt(arg, 2, 0)) return this.ofMacroOutput(name, arg, scope, depth);
        const args = this.fixedArguments(arg, 2, scope, depth);
        return args ? this.result(name, fn.split(args[0], args[1]), node, scope) : this.malformed(name, fn.SPLIT_SHAPE, node);
      }
      case 'Fn::Cidr': {
        const args = this.fixedArguments(arg, 3, scope, depth);
        return args ? this.result(name, fn.cidr(args[0], args[1], args[2]), node, scope) : this.malformed(name, fn.CIDR_SHAPE, node);
      }
      case 'Fn::Base64': {
        const input = this.argument(arg, scope, depth);
        this.checkStackOutputInside(name, input, node, scope);
        return this.result(name, fn.base64(input), node, scope);
      }
      case 'Fn::GetAZs':
        return this.result(name, this.getAZs(this.argument(arg, scope, depth)), node, scope);
      case 'Fn::ImportValue': {
        const exportName = this.argument(arg, scope, depth);
        this.checkStackOutputInside(name, exportName, node, scope);
        return this.result(name, importValue(exportName, this.options.crossStack?.exports), node, scope);
      }
      case 'Fn::GetStackOutput':
        return this.getStackOutput(arg, node, scope, depth);
      case 'Fn::Length':
        if (!this.options.languageExtensions) break;
        return this.result(name, fn.length(this.argument(arg, scope, depth)), node, scope);
      case 'Fn::ToJsonString':
        if (!this.options.languageExtensions) break;
        return this.result(name, fn.toJsonString(this.argument(arg, scope, depth)), node, scope);
      case 'Fn::Transform':
        return this.transform(arg, node, scope, depth);
      case 'Fn::Equals':
      case 'Fn::Not':
      case 'Fn::And':
      case 'Fn::Or': {
        // Condition functions belong in Conditions; elsewhere they are read as the boolean they compute.
        const { state, key } = this.conditionExpression(node, depth);
        return state === 'unknown' ? new UnknownValue('condition:' + key, 'a comparison decided at deploy time') : state;
      }
      default:
        break;
    }
    const hint =
      LANGUAGE_EXTENSION_FUNCTIONS.has(name) || name.startsWith('Fn::ForEach::')
        ? ' (it needs Transform: AWS::LanguageExtensions)'
        : RULE_FUNCTIONS.has(name)
          ? ' (it can be used only in the Rules section)'
          : '';
    this.sink.add(`Template format error: Encountered unsupported function: ${name}${hint}`, node.range, 'unsupported-function');
    return new UnknownValue('invalid:' + name, `an unsupported function ${name}`);
  }

  /**
   * A function applied to a macro's output. The macro runs before CloudFormation resolves the
   * function, so the function's value is known only once the macro has run: an unknown derived
   * from the evaluated argument, in which the macro's output is keyed by what the macro receives.
   */
  private ofMacroOutput(name: string, arg: TemplateNode, scope: Scope, depth: number): UnknownValue {
    // Which branch of Fn::If is taken is unknown, so neither branch counts as deployed.
    const evaluated = this.evaluate(arg, name === 'Fn::If' ? { ...scope, live: false } : scope, depth + 1);
    const input = evaluated === NO_VALUE ? null : evaluated;
    return derivedUnknown(name, valueKey(input), `${name} of ${fn.describeValue(input)}`, input);
  }

  /** Evaluates the items of a list argument of a fixed length (undefined when the argument has another shape). */
  private fixedArguments(arg: TemplateNode, length: number, scope: Scope, depth: number): Value[] | undefined {
    if (arg.kind !== 'seq' || arg.items.length !== length) return undefined;
    const values: Value[] = new Array<Value>(length);
    for (let i = 0; i < length; i++) values[i] = this.argument(arg.items[i], scope, depth);
    return values;
  }

  /** Evaluates a function argument; `AWS::NoValue` there reads as the empty string. */
  private argument(node: TemplateNode, scope: Scope, depth: number): Value {
    const v = this.evaluate(node, scope, depth + 1);
    return v === NO_VALUE ? '' : v;
  }

  /**
   * A function's value. Its error is reported only where the value is deployed: CloudFormation
   * resolves no function of a resource whose Condition is false or of the Fn::If branch not taken,
   * so `!Select [2, !Ref Subnets]` guarded by a "three subnets" condition is fine with two.
   */
  private result(name: string, r: fn.FunctionResult, node: MapNode, scope: Scope): Value {
    if ('value' in r) return r.value;
    if (!scope.live) return new UnknownValue('invalid:' + name, `an invalid ${name}`);
    return this.malformed(name, r.error, node);
  }

  /** Reports a malformed function at its range and stands in an unknown, so analysis continues. */
  private malformed(name: string, message: string, node: TemplateNode): UnknownValue {
    this.sink.add(message, node.range, 'malformed-intrinsic');
    return new UnknownValue('invalid:' + name, `an invalid ${name}`);
  }

  private getAZs(region: Value): fn.FunctionResult {
    // `!GetAZs` written without an argument reads as null; CloudFormation takes it as the empty string.
    if (region === '' || region === null) region = this.ownRegion();
    if (typeof region === 'string') return { value: new UnknownValue('azs:' + region, `the availability zones of ${region}`, [], undefined, `!GetAZs ${notationOf(region)}`) };
    if (isSymbolic(region)) return { value: derivedUnknown('azs', valueKey(region), `the availability zones of ${fn.describeValue(region)}`, region, { notation: `!GetAZs ${notationOf(region)}` }) };
    return { error: 'Template error: Fn::GetAZs requires a region name or an empty string' };
  }

  /** The stack's Region: the Region given, else the deploy-time value `AWS::Region`. */
  private ownRegion(): Value {
    return this.pseudo.get('AWS::Region') ?? new UnknownValue('pseudo:AWS::Region', "the stack's Region, known where it is deployed");
  }

  // ---------------------------------------------------------------- other stacks

  /**
   * `Fn::GetStackOutput`, checked as the Template Reference Guide documents it: a map of
   * StackName and OutputName, optionally Region and RoleArn, whose values cannot depend on a
   * resource; its short form cannot hold other short forms.
   */
  private getStackOutput(arg: TemplateNode, node: MapNode, scope: Scope, depth: number): Evaluated {
    const name = 'Fn::GetStackOutput';
    if (arg.kind !== 'map' || fn.REQUIRED_STACK_OUTPUT_PARAMETERS.some((p) => entryValue(arg, p) === undefined)) {
      return this.malformed(name, fn.GET_STACK_OUTPUT_SHAPE, node);
    }
    const args: Partial<Record<fn.StackOutputParameter, Value>> = {};
    for (const entry of arg.entries) {
      if (!fn.isStackOutputParameter(entry.key)) {
        // The guide lists four parameters but does not say how others are treated, so this only warns.
        this.sink.add(`Fn::GetStackOutput takes StackName, OutputName, Region and RoleArn; CloudFormation may reject ${entry.key}`, entry.keyRange, 'malformed-intrinsic', 'warning');
        continue;
      }
      if (node.shortForm !== undefined && entry.value.kind === 'map' && entry.value.shortForm !== undefined) {
        this.sink.add(`Template error: the short form !GetStackOutput cannot hold short-form functions such as ${entry.value.shortForm}; write Fn::GetStackOutput in full`, entry.value.range, 'malformed-intrinsic');
      }
      const value = this.argument(entry.value, scope, depth + 1);
      const resource = symbolDependencies(value)[0];
      if (resource !== undefined && scope.live) {
        this.sink.add(`Template error: the ${entry.key} of Fn::GetStackOutput cannot depend on a resource, and it reads ${resource.logicalId}`, entry.value.range, 'malformed-intrinsic');
      }
      args[entry.key] = value;
    }
    const placement = this.stackOutputPlacement(node, scope);
    if (placement !== undefined && scope.live) this.sink.add(fn.stackOutputPlacementError(placement), node.range, 'unsupported-placement');
    const current = this.currentStackOutput(args);
    if (current !== undefined) return current;
    this.note({ kind: 'stack-output-read-at-update' }, node.range);
    return this.result(name, fn.getStackOutput(args, this.ownRegion()), node, scope);
  }

  /**
   * The current value of another stack's output in this Region, when the caller read it: what
   * CloudFormation reads at update time. Another Region or a role stays a deploy-time value.
   */
  private currentStackOutput(args: Partial<Record<fn.StackOutputParameter, Value>>): string | undefined {
    const { StackName: stack, OutputName: output, Region: region, RoleArn: role } = args;
    if (typeof stack !== 'string' || typeof output !== 'string' || role !== undefined) return undefined;
    // With the stack's own Region unknown, only an output read without a Region is known to be read from it.
    if (region !== undefined && region !== this.ownRegion()) return undefined;
    return this.options.crossStack?.stackOutputs?.get(stack)?.get(output);
  }

  /** Where an `Fn::GetStackOutput` is written, if CloudFormation cannot resolve it there yet. */
  private stackOutputPlacement(node: MapNode, scope: Scope): string | undefined {
    // In Conditions, values are evaluated only as the operands of Fn::Equals.
    if (scope.block === 'Conditions') return 'inside Fn::Equals in the Conditions section';
    if (scope.block === 'Outputs') {
      if (this.outputValueNodes === undefined) {
        this.outputValueNodes = new Set();
        for (const output of this.model.outputs.values()) {
          const value = entryValue(output.node, 'Value');
          if (value !== undefined) this.outputValueNodes.add(value);
        }
      }
      if (this.outputValueNodes.has(node)) return 'as the Value of an output';
    }
    return undefined;
  }

  /** Reports an `Fn::GetStackOutput` inside the argument of a function that cannot take it yet. */
  private checkStackOutputInside(name: string, argument: Value, node: MapNode, scope: Scope): void {
    if (scope.live && fn.readsStackOutput(argument)) this.sink.add(fn.stackOutputPlacementError(`inside ${name}`), node.range, 'unsupported-placement');
  }

  // ---------------------------------------------------------------- references

  /** The name a `Ref`/`Fn::GetAtt` argument gives; AWS::LanguageExtensions allows it to be computed. */
  private nameArgument(arg: TemplateNode, scope: Scope, depth: number): Value | undefined {
    if (arg.kind === 'scalar') return typeof arg.value === 'string' ? arg.value : undefined;
    // A macro's output stands for the name as written; AWS::LanguageExtensions lets any function compute it.
    if (arg.kind === 'map' && (this.options.languageExtensions || isMacroInvocation(arg))) {
      const v = this.evaluate(arg, scope, depth + 1);
      return v === NO_VALUE ? undefined : v;
    }
    return undefined;
  }

  private ref(arg: TemplateNode, node: MapNode, scope: Scope, depth: number): Evaluated {
    const name = this.nameArgument(arg, scope, depth);
    if (typeof name !== 'string') {
      if (isSymbolic(name)) return derivedUnknown('ref', valueKey(name), `a Ref to ${fn.describeValue(name)}`, name);
      return this.malformed('Ref', REF_SHAPE, node);
    }
    return this.resolveName(name, arg.range, scope);
  }

  /** What a bare name means in `Ref` and `Fn::Sub`: parameter, pseudo parameter or resource. */
  private resolveName(name: string, range: RangeSource, scope: Scope): Evaluated {
    if (name === 'AWS::NoValue') return NO_VALUE;
    const pseudo = this.pseudo.get(name);
    if (pseudo !== undefined) return pseudo;
    const param = this.parameters.get(name);
    if (param !== undefined) return param.value;
    if (this.model.resources.has(name)) {
      if (!this.referenceResource(name, range, scope)) return new UnknownValue('invalid:ref', `a Ref to resource ${name} outside Resources`);
      return this.resourceRef(name);
    }
    const inModule = this.registryModules().reference(name);
    if (inModule !== undefined && inModule.attribute === undefined) return this.moduleResource(inModule, range, scope);
    this.reportUnresolved(name, range, scope);
    return new UnknownValue('unresolved:' + name, `${name}, which is not declared`);
  }

  private reportUnresolved(name: string, range: RangeSource, scope: Scope): void {
    if (scope.block === 'Conditions') {
      this.sink.add(`Template format error: Unresolved dependencies [${name}]. Cannot reference resources in the Conditions block of the template`, this.rangeOf(range), 'unresolved-reference');
    } else this.sink.add(unresolvedMessage(name, scope.block), this.rangeOf(range), 'unresolved-reference');
  }

  /** Records a reference to a resource; false (with an error) where resources cannot be referenced. */
  private referenceResource(logicalId: string, range: RangeSource, scope: Scope): boolean {
    if (scope.block === 'Conditions') {
      this.reportUnresolved(logicalId, range, scope);
      return false;
    }
    scope.deps?.add(logicalId);
    // A live reference to a resource that will not exist is what CloudFormation rejects when the stack is deployed.
    if (scope.live && this.resourceActive.get(logicalId) === false) {
      this.sink.add(unresolvedMessage(logicalId, scope.block), this.rangeOf(range), 'reference-to-inactive-resource');
    }
    return true;
  }

  private resourceRef(logicalId: string): ResourceRef {
    let ref = this.refCache.get(logicalId);
    if (ref === undefined) {
      ref = new ResourceRef(logicalId);
      this.refCache.set(logicalId, ref);
    }
    return ref;
  }

  /** The registry modules of the template, indexed on first use. */
  private registryModules(): ModuleIndex {
    this.modules ??= new ModuleIndex(this.model);
    return this.modules;
  }

  /** Adds the note that names the template's registry modules, if it declares any. */
  noteRegistryModules(): void {
    const modules = this.registryModules().logicalIds;
    if (modules.length > 0) this.note({ kind: 'registry-modules', modules: [...modules] }, this.model.resources.get(modules[0])?.keyRange);
  }

  /** The resource a DependsOn name stands for: a declared one, or the registry module that expands into it. */
  dependencyTarget(name: string): string | undefined {
    if (this.model.resources.has(name)) return name;
    const inModule = this.registryModules().reference(name);
    return inModule !== undefined && inModule.attribute === undefined ? inModule.module : undefined;
  }

  /**
   * A resource inside a registry module, or one of its attributes: it exists, but only AWS knows
   * its value. The value is keyed by the expanded name, so both spellings (`ModRes`, `Mod.Res`)
   * and both sides of a comparison agree; it depends on the module, whose replacement may
   * replace the resource.
   */
  private moduleResource(target: ModuleReference, range: RangeSource, scope: Scope): Evaluated {
    if (scope.block === 'Conditions') {
      this.reportUnresolved(target.logicalId, range, scope);
      return new UnknownValue('invalid:module', `${target.logicalId} in Conditions`);
    }
    this.referenceResource(target.module, range, scope);
    const { module, logicalId, attribute } = target;
    const of = this.registryModules().describe(module);
    if (attribute === undefined) return new UnknownValue('module:' + logicalId, `${logicalId}, a resource of ${of}`, [this.resourceRef(module)]);
    const inner = logicalId.slice(module.length);
    return new UnknownValue(`module:${logicalId}.${attribute}`, `${logicalId}.${attribute}, from ${of}`, [new ResourceAttribute(module, `${inner}.${attribute}`)]);
  }

  private getAtt(arg: TemplateNode, node: MapNode, scope: Scope, depth: number): Evaluated {
    let logicalId: Value | undefined;
    let attribute: Value | undefined;
    let idRange = arg.range;
    if (arg.kind === 'scalar' && typeof arg.value === 'string') {
      const dot = arg.value.indexOf('.');
      if (dot > 0) {
        logicalId = arg.value.slice(0, dot);
        attribute = arg.value.slice(dot + 1);
      }
    } else if (arg.kind === 'seq' && arg.items.length === 2) {
      idRange = arg.items[0].range;
      logicalId = this.nameArgument(arg.items[0], scope, depth);
      const attrNode = arg.items[1];
      if (attrNode.kind === 'scalar') attribute = typeof attrNode.value === 'string' ? attrNode.value : undefined;
      else {
        // The attribute name may be computed (a Ref to a parameter), in the long form only.
        const v = this.evaluate(attrNode, scope, depth + 1);
        attribute = v === NO_VALUE ? undefined : v;
      }
    }
    if (typeof logicalId !== 'string' || logicalId === '' || attribute === undefined || attribute === '' || attribute === null) {
      if (isSymbolic(logicalId)) return derivedUnknown('getatt', valueKey(logicalId), `an attribute of ${fn.describeValue(logicalId)}`, logicalId);
      return this.malformed('Fn::GetAtt', GET_ATT_SHAPE, node);
    }
    if (!this.model.resources.has(logicalId) || this.registryModules().has(logicalId)) {
      const inModule = this.moduleAttribute(logicalId, attribute);
      if (inModule !== undefined) return this.moduleResource(inModule, idRange, scope);
    }
    if (!this.model.resources.has(logicalId)) {
      this.sink.add(`Template error: instance of Fn::GetAtt references undefined resource ${logicalId}`, idRange, 'unresolved-reference');
      return new UnknownValue('unresolved:' + logicalId, `${logicalId}, which is not a resource`);
    }
    if (!this.referenceResource(logicalId, idRange, scope)) return new UnknownValue('invalid:getatt', `an attribute of resource ${logicalId} outside Resources`);
    if (typeof attribute === 'string') return new ResourceAttribute(logicalId, attribute);
    const text = scalarText(attribute);
    if (text !== undefined) return new ResourceAttribute(logicalId, text);
    return new UnknownValue(`getatt:${logicalId}:${valueKey(attribute)}`, `an attribute of ${logicalId} named at deploy time`, [this.resourceRef(logicalId)]);
  }

  /** What `Fn::GetAtt [logicalId, attribute]` reads inside a registry module, if anything: `[ModRes, A]`, `[Mod.Res, A]`, `[Mod, Res.A]`. */
  private moduleAttribute(logicalId: string, attribute: Value): ModuleReference | undefined {
    const modules = this.registryModules();
    if (typeof attribute === 'string') {
      const target = modules.reference(`${logicalId}.${attribute}`);
      return target?.attribute === undefined ? undefined : target;
    }
    // An attribute named at deploy time: the resource is named in full, and the attribute is keyed by its expression.
    const target = modules.reference(logicalId);
    return target === undefined || target.attribute !== undefined ? undefined : { ...target, attribute: scalarText(attribute) ?? valueKey(attribute) };
  }

  private sub(arg: TemplateNode, node: MapNode, scope: Scope, depth: number): Evaluated {
    let textNode: TemplateNode | undefined;
    let variablesNode: TemplateNode | undefined;
    if (arg.kind === 'scalar') textNode = arg;
    else if (arg.kind === 'seq' && (arg.items.length === 1 || arg.items.length === 2)) {
      textNode = arg.items[0];
      variablesNode = arg.items[1];
    }
    if (isMacroInvocation(textNode)) return this.ofMacroOutput('Fn::Sub', arg, scope, depth);
    if (textNode?.kind !== 'scalar' || typeof textNode.value !== 'string' || (variablesNode !== undefined && variablesNode.kind !== 'map')) {
      return this.malformed('Fn::Sub', SUB_SHAPE, node);
    }
    let variables: Map<string, Evaluated> | undefined;
    // Variables a macro writes: any name may be among them, so none is unresolved.
    let macroVariables: Value | undefined;
    if (isMacroInvocation(variablesNode)) {
      const evaluated = this.evaluate(variablesNode!, scope, depth + 2);
      macroVariables = evaluated === NO_VALUE ? null : evaluated;
    } else if (variablesNode?.kind === 'map') {
      variables = new Map();
      for (const entry of variablesNode.entries) {
        const value = this.evaluate(entry.value, scope, depth + 2);
        if (scope.live && value !== NO_VALUE && fn.readsStackOutput(value)) {
          this.sink.add(fn.stackOutputPlacementError('inside an Fn::Sub variable map'), entry.value.range, 'unsupported-placement');
        }
        variables.set(entry.key, value);
      }
    }
    const textRange = textNode.range;
    const parts: (string | Symbolic)[] = [];
    for (const part of this.parsedSub(textNode.value)) {
      if ('literal' in part) {
        parts.push(part.literal);
        continue;
      }
      const name = part.variable;
      // The exact range of `${name}` is found only when an error needs it.
      const range: RangeSource = { within: textRange, needle: '${' + name };
      let v: Evaluated;
      if (variables?.has(name)) v = variables.get(name)!;
      else if (this.pseudo.has(name) || this.parameters.has(name) || this.model.resources.has(name) || name === 'AWS::NoValue') v = this.resolveName(name, range, scope);
      else {
        const dot = name.indexOf('.');
        const id = dot > 0 ? name.slice(0, dot) : '';
        // `${Resource.Attribute}` of a declared resource is what it says, unless the resource is a module.
        const inModule = this.model.resources.has(id) && !this.registryModules().has(id) ? undefined : this.registryModules().reference(name);
        if (inModule !== undefined) v = this.moduleResource(inModule, range, scope);
        else if (dot > 0 && dot < name.length - 1 && this.model.resources.has(id)) {
          v = this.referenceResource(id, range, scope) ? new ResourceAttribute(id, name.slice(dot + 1)) : new UnknownValue('invalid:getatt', 'an attribute outside Resources');
        } else if (macroVariables !== undefined) {
          v = new UnknownValue('sub-variable:' + name, `the variable ${name}, which a macro may define`);
        } else {
          this.reportUnresolved(name, range, scope);
          v = new UnknownValue('unresolved:' + name, `${name}, which is not declared`);
        }
      }
      if (v === NO_VALUE) continue;
      const literal = scalarText(v);
      if (literal !== undefined) parts.push(literal);
      else if (isSymbolic(v)) parts.push(v);
      else {
        this.sink.add(`Template error: variable ${name} in Fn::Sub expression does not resolve to a string`, this.rangeOf(range), 'malformed-intrinsic');
        parts.push(new UnknownValue('invalid:sub', `the variable ${name}, which is not a string`));
      }
    }
    if (macroVariables === undefined) return concatenate(parts);
    // The macro's map may also redefine names declared here, so the text as resolved is only part of the key.
    const from: Value = [concatenate(parts), macroVariables];
    return derivedUnknown('Fn::Sub', valueKey(from), `Fn::Sub with the variables of ${fn.describeValue(macroVariables)}`, from);
  }

  /** The parts of an `Fn::Sub` string, parsed once per distinct string (templates repeat them, loops above all). */
  private parsedSub(text: string): SubPart[] {
    let parts = this.subCache.get(text);
    if (parts === undefined) {
      parts = parseSubString(text);
      this.subCache.set(text, parts);
    }
    return parts;
  }

  private rangeOf(source: RangeSource): Range {
    return 'needle' in source ? this.locate(source.within, source.needle) : source;
  }

  /** Narrows a scalar's range to where `needle` appears in its source text (the whole range when it cannot be found verbatim). */
  private locate(range: Range, needle: string): Range {
    const at = this.model.parsed.text.slice(range.start, range.end).indexOf(needle);
    if (at < 0) return range;
    const close = this.model.parsed.text.indexOf('}', range.start + at);
    const end = close >= 0 && close < range.end ? close + 1 : range.start + at + needle.length;
    return { start: range.start + at, end };
  }

  private fnIf(arg: TemplateNode, node: MapNode, scope: Scope, depth: number): Evaluated {
    if (arg.kind !== 'seq' || arg.items.length !== 3) return this.malformed('Fn::If', IF_SHAPE, node);
    const [nameNode, whenTrue, whenFalse] = arg.items;
    if (nameNode.kind !== 'scalar' || typeof nameNode.value !== 'string') return this.malformed('Fn::If', IF_SHAPE, node);
    const state = this.conditionNamed(nameNode.value, nameNode.range, 'Fn::If');
    if (state === 'unknown') return this.undecidedIf(nameNode.value, whenTrue, whenFalse, scope, depth);
    const taken = state === true;
    const result = this.evaluate(taken ? whenTrue : whenFalse, scope, depth + 2);
    // The other branch is validated (CloudFormation checks the whole template) but neither deployed nor a dependency.
    this.evaluate(taken ? whenFalse : whenTrue, DEAD_SCOPES[scope.block], depth + 2);
    return result;
  }

  /**
   * `Fn::If` over a condition only AWS can decide: either branch may be deployed, so both are
   * dependencies, and neither reports what would be an error only if it were taken. The value is
   * one of the two: itself when both agree, else an unknown keyed by the condition's key and both
   * branches, so it compares equal exactly when the condition and both branches are unchanged.
   */
  private undecidedIf(name: string, whenTrue: TemplateNode, whenFalse: TemplateNode, scope: Scope, depth: number): Evaluated {
    const branchScope: Scope = { block: scope.block, live: false, deps: scope.deps };
    const t = this.evaluate(whenTrue, branchScope, depth + 2);
    const f = this.evaluate(whenFalse, branchScope, depth + 2);
    const keyOf = (v: Evaluated) => (v === NO_VALUE ? 'NoValue' : valueKey(v));
    const trueKey = keyOf(t);
    const falseKey = keyOf(f);
    if (trueKey === falseKey) return t;
    const describe = (v: Evaluated) => (v === NO_VALUE ? 'absent' : fn.describeValue(v));
    const branches: Value = [t === NO_VALUE ? null : t, f === NO_VALUE ? null : f];
    return derivedUnknown('if', `${this.conditionKeys.get(name)}?${trueKey}:${falseKey}`, `${describe(t)} if ${name} holds, else ${describe(f)}`, branches);
  }

  // ---------------------------------------------------------------- mappings

  private mapping(name: string): MapNode | undefined {
    if (this.mappingIndex === undefined) {
      this.mappingIndex = new Map();
      for (const entry of this.model.mappings?.entries ?? []) if (entry.value.kind === 'map') this.mappingIndex.set(entry.key, entry.value);
    }
    return this.mappingIndex.get(name);
  }

  private findInMap(arg: TemplateNode, node: MapNode, scope: Scope, depth: number): Evaluated {
    if (arg.kind !== 'seq' || (arg.items.length !== 3 && arg.items.length !== 4)) return this.malformed('Fn::FindInMap', FIND_IN_MAP_SHAPE, node);
    let defaultNode: TemplateNode | undefined;
    if (arg.items.length === 4) {
      const options = arg.items[3];
      if (this.options.languageExtensions && isMacroInvocation(options)) return this.ofMacroOutput('Fn::FindInMap', arg, scope, depth);
      defaultNode = options.kind === 'map' ? options.entries.find((e) => e.key === 'DefaultValue')?.value : undefined;
      if (!this.options.languageExtensions || defaultNode === undefined) return this.malformed('Fn::FindInMap', FIND_IN_MAP_SHAPE, node);
    }
    const keys: Value[] = [this.argument(arg.items[0], scope, depth + 1), this.argument(arg.items[1], scope, depth + 1), this.argument(arg.items[2], scope, depth + 1)];
    if (keys.some(isSymbolic)) {
      const fallback = defaultNode ? this.evaluate(defaultNode, scope, depth + 2) : undefined;
      const from: Value = fallback === undefined || fallback === NO_VALUE ? keys : [...keys, fallback];
      // The entries the lookup may select are part of what it gives: an edit to one of them is a
      // change wherever the stack's own keys select it (a parameter's current value, the account).
      const selectable = this.selectable(keys, scope, depth);
      const keysKey = valueKey(from);
      const decidedBy = keys.flatMap((key, position) => (key instanceof UnknownValue ? [{ position, name: lookupKeyName(key) }] : []));
      if (fallback === undefined && scope.live) this.checkSelectable(keys, selectable, arg);
      const lookup = decidedBy.length === 0 ? undefined : { keysKey, decidedBy, choices: selectable.choices };
      const notation = `!FindInMap [${keys.map(notationOf).join(', ')}${fallback === undefined || fallback === NO_VALUE ? '' : `, {DefaultValue: ${notationOf(fallback)}}`}]`;
      return derivedUnknown('findinmap', `${keysKey}|${selectable.key}`, `Fn::FindInMap [${keys.map(fn.describeValue).join(', ')}]${selectable.values}`, from, { ...(lookup ? { lookup } : {}), notation });
    }
    const texts = keys.map(scalarText);
    if (texts.some((t) => t === undefined)) return this.malformed('Fn::FindInMap', FIND_IN_MAP_SHAPE, node);
    const [mapName, topKey, secondKey] = texts as string[];
    const top = this.mapping(mapName);
    const second = top === undefined ? undefined : entryValue(top, topKey);
    const found = second?.kind === 'map' ? entryValue(second, secondKey) : undefined;
    if (found !== undefined) return this.evaluate(found, scope, depth + 2);
    if (defaultNode !== undefined) return this.evaluate(defaultNode, scope, depth + 2);
    const missingAt = top === undefined ? 0 : second === undefined ? 1 : 2;
    this.sink.add(`Template error: Unable to get mapping for ${mapName}::${topKey}::${secondKey}`, arg.items[missingAt].range, 'mapping-not-found');
    return new UnknownValue(`invalid:findinmap:${mapName}::${topKey}::${secondKey}`, `the missing mapping entry ${mapName}::${topKey}::${secondKey}`);
  }

  /**
   * A lookup keyed by a value only the deployment knows fails where that value selects no entry:
   * when no entry has the keys that are known, whatever the value (CloudFormation's error), and
   * when some top-level entries lack the second-level key, for those values (a warning naming them).
   * Values the map does not list at all are the template's choice of where it runs: not named.
   */
  private checkSelectable(keys: readonly Value[], selectable: Selectable, arg: SeqNode): void {
    const shown = keys.map((k) => {
      const named = k instanceof UnknownValue ? namedDeployTimeValue(k) : undefined;
      return typeof k === 'string' ? k : named !== undefined ? `!Ref ${named}` : fn.describeValue(k);
    });
    const deciding = keys.filter((k): k is UnknownValue => k instanceof UnknownValue).map((k) => deployTimeValueWords(lookupKeyName(k)));
    if (selectable.choices.length === 0) {
      const whatever = deciding.length === 0 ? '' : `, whatever ${deciding.join(' and ')} ${deciding.length === 1 ? 'is' : 'are'}`;
      this.sink.add(`Template error: Fn::FindInMap [${shown.join(', ')}] selects no entry${whatever}`, arg.range, 'mapping-not-found');
      return;
    }
    if (selectable.lacking.length === 0 || deciding.length !== 1) return;
    const names = selectable.lacking.length <= 4 ? selectable.lacking.join(', ') : `${selectable.lacking.slice(0, 4).join(', ')} and ${selectable.lacking.length - 4} more`;
    const message = `Fn::FindInMap [${shown.join(', ')}] fails if ${deciding[0]} is ${names}: ${selectable.lacking.length === 1 ? 'that entry has' : 'those entries have'} no ${shown[2]}`;
    this.sink.add(message, arg.items[1]!.range, 'mapping-not-found-for-some', 'warning');
  }

  /**
   * The entries of Mappings that a lookup whose keys are partly known only at deploy time may
   * select, as a key and in words (`: one of "t3.small", "m5.large"`), once per pattern of known keys,
   * so that many lookups of one map cost one walk of it.
   */
  private selectable(keys: readonly Value[], scope: Scope, depth: number): Selectable {
    const known = keys.map((k) => (isSymbolic(k) ? undefined : scalarText(k)));
    const pattern = known.map((k) => (k === undefined ? '\u0000?' : k)).join('\u0000');
    const cached = this.selectableCache.get(pattern);
    if (cached !== undefined) return cached;
    const entries: Value[] = [];
    const choices: { path: [string, string, string]; value: Value }[] = [];
    const shown = new Set<string>();
    // The top-level keys whose entry lacks the second-level key, when only the top-level key is unknown.
    const lacking: string[] = [];
    const onlyTopUnknown = known[0] !== undefined && known[1] === undefined && known[2] !== undefined;
    for (const map of this.model.mappings?.entries ?? []) {
      if ((known[0] !== undefined && map.key !== known[0]) || map.value.kind !== 'map') continue;
      for (const top of map.value.entries) {
        if ((known[1] !== undefined && top.key !== known[1]) || top.value.kind !== 'map') continue;
        if (onlyTopUnknown && !top.value.entries.some((e) => e.key === known[2])) lacking.push(top.key);
        for (const second of top.value.entries) {
          if (known[2] !== undefined && second.key !== known[2]) continue;
          const value = this.evaluate(second.value, scope, depth + 2);
          entries.push([map.key, top.key, second.key, value === NO_VALUE ? null : value]);
          choices.push({ path: [map.key, top.key, second.key], value: value === NO_VALUE ? null : value });
          if (shown.size < SHOWN_SELECTABLE) shown.add(value === NO_VALUE ? 'nothing' : fn.describeValue(value));
        }
      }
    }
    const more = entries.length > shown.size && shown.size === SHOWN_SELECTABLE ? ', …' : '';
    const selectable = { key: compactKey(valueKey(entries)), values: shown.size === 0 ? '' : `: one of ${[...shown].join(', ')}${more}`, choices, lacking };
    this.selectableCache.set(pattern, selectable);
    return selectable;
  }

  // ---------------------------------------------------------------- transforms

  /**
   * The output of a macro, which replaces the map that holds `Fn::Transform`. The macro receives
   * its parameters as written, unresolved, and the entries beside it; its output may hold
   * functions that CloudFormation then resolves. So the output is keyed both by what is written
   * and by what it evaluates to: it is equal on both sides only when neither changed.
   */
  private transform(arg: TemplateNode, node: MapNode, scope: Scope, depth: number): Evaluated {
    const names = macroNames(arg);
    const label = names.length > 0 ? names.join(', ') : 'macro';
    this.note({ kind: 'macro-not-expanded', macros: names.length > 0 ? names : ['macro'] }, node.range);
    const input: ValueObject = {};
    // What the macro receives is not deployed as written, so nothing in it is an error of deployment.
    const inputScope: Scope = { ...scope, live: false };
    for (const entry of node.entries) {
      const v = this.evaluate(entry.value, inputScope, depth + 1);
      if (v !== NO_VALUE) setEntry(input, entry.key, v);
    }
    const from: Value = [this.plain(node), input];
    return derivedUnknown('transform', valueKey(from), `the output of Fn::Transform ${label}`, input);
  }

  /** The plain data of a node, used only to key unknowns built from unevaluated expressions. */
  private plain(node: TemplateNode): Value {
    if (node.kind === 'scalar') return node.value;
    if (node.kind === 'seq') return node.items.map((i) => this.plain(i));
    const out: ValueObject = {};
    for (const e of node.entries) setEntry(out, e.key, this.plain(e.value));
    return out;
  }
}

/**
 * A condition's value with a canonical key of what it computes: `true`/`false` once decided,
 * else a text built from the values it compares (unknowns by their keys), so that an undecided
 * condition has the same key in two templates exactly when it computes the same thing from the
 * same deploy-time values.
 */
interface ConditionValue {
  state: fn.Tri;
  key: string;
}

const DECIDED_FALSE: ConditionValue = { state: false, key: 'false' };
const DECIDED_TRUE: ConditionValue = { state: true, key: 'true' };

function decided(state: boolean): ConditionValue {
  return state ? DECIDED_TRUE : DECIDED_FALSE;
}

/** The value under a key of a map node (maps are small: a scan beats building an index). */
function entryValue(node: MapNode, key: string): TemplateNode | undefined {
  for (const e of node.entries) if (e.key === key) return e.value;
  return undefined;
}

/**
 * `Fn::ImportValue`: the value another stack exports. Its current value when the caller read the
 * Region's exports (an export cannot change while it is imported, so it is also the value the
 * deployed stack read); else known only at deploy time.
 */
function importValue(name: Value, exports: ReadonlyMap<string, string> | undefined): fn.FunctionResult {
  if (typeof name === 'string') {
    const current = exports?.get(name);
    return { value: current ?? new UnknownValue('import:' + name, `Fn::ImportValue ${name}`, [], undefined, `!ImportValue ${notationOf(name)}`) };
  }
  if (isSymbolic(name)) return { value: derivedUnknown('import', valueKey(name), `Fn::ImportValue ${fn.describeValue(name)}`, name, { notation: `!ImportValue ${notationOf(name)}` }) };
  return { error: 'Template error: Fn::ImportValue requires the name of an export' };
}

/** The condition names a condition expression refers to with `Condition: Name`, found without recursion. */
export function conditionReferences(node: TemplateNode): string[] {
  const names: string[] = [];
  const stack: TemplateNode[] = [node];
  while (stack.length > 0) {
    const cur = stack.pop()!;
    if (cur.kind === 'seq') for (const item of cur.items) stack.push(item);
    else if (cur.kind === 'map') {
      for (const e of cur.entries) {
        if (e.key === 'Condition' && e.value.kind === 'scalar' && typeof e.value.value === 'string') names.push(e.value.value);
        else stack.push(e.value);
      }
    }
  }
  return names;
}

/** What a lookup keyed partly by deploy-time values may select (`Evaluator.selectable`). */
interface Selectable {
  /** A key for the entries, so that an edit to any of them changes the lookup's value. */
  key: string;
  /** The entries' values in words (`: one of "t3.small", "m5.large"`). */
  values: string;
  choices: LookupChoices['choices'];
  /** Top-level keys whose entry lacks the second-level key, when only the top-level key is unknown. */
  lacking: string[];
}

/** The name of a lookup key only the deployment knows: a parameter's or a pseudo parameter's name, else its description. */
function lookupKeyName(key: UnknownValue): string {
  return namedDeployTimeValue(key) ?? key.reason;
}

/** The parameter or pseudo parameter a deploy-time value is, when it is one. */
function namedDeployTimeValue(key: UnknownValue): string | undefined {
  return parameterOf(key) ?? pseudoParameterOf(key);
}
