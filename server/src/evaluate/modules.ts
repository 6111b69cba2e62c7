/**
 * Registry modules (`Type: Org::Service::Name::MODULE`). CloudFormation replaces a module
 * resource with the resources of the module's registered template, each named by the module's
 * logical id followed by its own: `MyBucket` + `S3Bucket` is `MyBucketS3Bucket`, which templates
 * may also write `MyBucket.S3Bucket` (AWS CloudFormation User Guide, "Reference module resources
 * in CloudFormation templates"). That template lives in the registry, so here a module is opaque:
 * any name that starts with a module's logical id is taken to be one of its resources.
 */
import type { TemplateModel } from '../template/model';
import { SERVERLESS_TYPE_PREFIX } from '../template/readModel';

const MODULE_TYPE_SUFFIX = '::MODULE';

/** CloudFormation's limit on the length of a logical id; no module resource name is longer. */
const MAX_LOGICAL_ID_LENGTH = 255;

/** Whether a resource type is a registry module. */
export function isModuleType(type: string | undefined): boolean {
  return type !== undefined && type.endsWith(MODULE_TYPE_SUFFIX);
}

/**
 * Whether a resource stands for resources not visible here: a registry module, or a SAM resource
 * still in the template, one the Serverless transform left as written (a feature not expanded
 * yet, or invalid SAM), which like a module stands for resources named after it
 * (`MyFunctionRole`, `MyFunction.Alias`).
 */
export function isOpaqueType(type: string | undefined): boolean {
  return isModuleType(type) || (type !== undefined && type.startsWith(SERVERLESS_TYPE_PREFIX));
}

/** A reference to a resource inside a registry module, and to one of its attributes when there is one. */
export interface ModuleReference {
  /** The logical id of the module resource, as the template declares it. */
  module: string;
  /** The logical id the resource has once the module is expanded (`<module><resource>`). */
  logicalId: string;
  /** The attribute, for `Fn::GetAtt` and `${Resource.Attribute}`. */
  attribute?: string;
}

/**
 * The registry modules a template declares (and the SAM resources left unexpanded, which stand
 * for resources the same way), and what names that start with their logical ids refer to.
 */
export class ModuleIndex {
  private readonly modules = new Set<string>();
  private readonly serverless = new Set<string>();

  constructor(model: TemplateModel) {
    for (const decl of model.resources.values()) {
      if (isModuleType(decl.type)) this.modules.add(decl.logicalId);
      else if (isOpaqueType(decl.type)) {
        this.modules.add(decl.logicalId);
        this.serverless.add(decl.logicalId);
      }
    }
  }

  /** The logical ids of the registry module resources, in template order. */
  get logicalIds(): readonly string[] {
    return [...this.modules].filter((id) => !this.serverless.has(id));
  }

  /** How a value from inside an opaque resource is described: `a resource of registry module M`, or what SAM generates. */
  describe(module: string): string {
    return this.serverless.has(module) ? `SAM resource ${module}, not expanded` : `registry module ${module}`;
  }

  /** Whether a logical id is a module resource. */
  has(logicalId: string): boolean {
    return this.modules.has(logicalId);
  }

  /**
   * What a written name refers to inside a module: `ModRes` or `Mod.Res`, each optionally
   * followed by `.Attribute`. Undefined when no module's logical id starts it. Callers resolve
   * declared names first: a declared resource is never a module's.
   */
  reference(name: string): ModuleReference | undefined {
    if (this.modules.size === 0) return undefined;
    const dot = name.indexOf('.');
    const head = dot < 0 ? name : name.slice(0, dot);
    const tail = dot < 0 ? undefined : name.slice(dot + 1);
    if (this.modules.has(head)) {
      // `Mod.Res` or `Mod.Res.Attribute`: the resource's own name follows the module's.
      if (tail === undefined || tail === '') return undefined;
      const next = tail.indexOf('.');
      const resource = next < 0 ? tail : tail.slice(0, next);
      const attribute = next < 0 ? undefined : tail.slice(next + 1);
      if (resource === '' || attribute === '') return undefined;
      return attribute === undefined ? { module: head, logicalId: head + resource } : { module: head, logicalId: head + resource, attribute };
    }
    const module = this.moduleStarting(head);
    if (module === undefined || tail === '') return undefined;
    return tail === undefined ? { module, logicalId: head } : { module, logicalId: head, attribute: tail };
  }

  /** The longest module logical id that a name starts with and is longer than. */
  private moduleStarting(name: string): string | undefined {
    // Prefixes are looked up rather than modules scanned, so the cost is bounded by the name, not by the template.
    for (let end = Math.min(name.length - 1, MAX_LOGICAL_ID_LENGTH); end > 0; end--) {
      const prefix = name.slice(0, end);
      if (this.modules.has(prefix)) return prefix;
    }
    return undefined;
  }
}
