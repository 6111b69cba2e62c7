/**
 * What every SAM resource's translation may read and add to: the template being transformed,
 * the parameter values known at transform time, and the collections several resources share
 * (deployment preferences, references to generated resources, new conditions, notes).
 */
import type { Range } from '../../template/ast';
import type { GeneratedResource, Origin } from './generated';
import { ResourceReferences } from './intrinsics';
import type { DeploymentPreferences } from './deploymentPreference';
import type { SharedUsagePlan } from './sharedUsagePlan';
import type { SamError } from './errors';
import type { SamResource } from './samResource';
import type { PlainMap } from './values';

/** Notes that `property` of `sam` is a `Ref` to `parameter`, which has no value at hand, at the property where the resource writes it. */
export function noteParameterWithoutValue(ctx: TranslationContext, sam: SamResource, property: string, parameter: string): void {
  ctx.note({ kind: 'sam-parameter-without-value', logicalId: sam.logicalId, property, parameter }, sam.propertyRange(property) ?? sam.node?.range);
}

/** A note about the transform, shown with the report. */
/** Something the Serverless transform could not show the comparison, as data (`present/` words it). */
export type SamNote = (
  /** A SAM feature not expanded yet: analysed as written. */
  | { kind: 'sam-feature-not-expanded'; logicalId: string; feature: string }
  /** A Serverless Application Repository application, whose template URL only AWS knows. */
  | { kind: 'sam-application-url'; logicalId: string }
  /** A local artifact path that `sam deploy` uploads: the files there are not in the template. */
  | { kind: 'sam-local-artifact'; logicalId: string; property: string; path: string }
  /** No artifact path written: `sam build` and `sam deploy` package the template's folder. */
  | { kind: 'sam-packaged-folder'; logicalId: string; property: string }
  /** A function's image that `sam build` builds from a local folder (`Metadata.DockerContext`) and `sam deploy` pushes. */
  | { kind: 'sam-local-image'; logicalId: string; path: string }
  /** A zip function (no `PackageType: Image`) that names an image: the transform does not read `ImageUri`. */
  | { kind: 'sam-image-uri-ignored'; logicalId: string }
  /** A local artifact path with no file or folder there, as the caller found: shown as a warning (present/findings.ts). */
  | { kind: 'sam-local-artifact-missing'; logicalId: string; property: string; path: string }
  /**
   * A property SAM needs the value of (to name what it generates, or to decide a setting) that is
   * a `Ref` to a parameter with no value at hand: a stand-in takes the value's place.
   */
  | { kind: 'sam-parameter-without-value'; logicalId: string; property: string; parameter: string }
  /** An API with AlwaysDeploy: a new deployment on every deploy, which no comparison shows. */
  | { kind: 'sam-always-deploy'; logicalId: string }
) & { range?: Range };

/**
 * For each application and version the template names, the stand-in template URL (an `Fn::Join`
 * that reads the parameters naming it, when one has no value at hand), or the error found for it.
 */
export type ApplicationTemplates = Map<string, string | { 'Fn::Join': [string, unknown[]] } | SamError | false>;

/** The state one transform shares across resources. */
export interface TranslationContext {
  /** Parameter values known at transform time (supplied or default), and AWS::Region and AWS::Partition. */
  parameters: ReadonlyMap<string, unknown>;
  /** The partition SAM writes into the ARNs it spells out: the Region's, or `aws` when the Region is not known. */
  partition: string;
  /** The template's Mappings, for `Fn::FindInMap` in deployment preferences. */
  mappings: unknown;
  /** The template's Conditions; the transform adds combined conditions here. */
  conditions: PlainMap;
  /** The Resources section after the plugins ran (SAM resources still in SAM form), by logical id. */
  resources: PlainMap;
  /** Whether SAM would have converted this template for Python 2.7 dict order (it has a REST API). */
  py27: boolean;
  references: ResourceReferences;
  /** The SAM resources the transform renamed (a layer version takes a hash), old id → new id. */
  changedIds: Map<string, string>;
  deploymentPreferences: DeploymentPreferences;
  /** For each REST API, the FunctionName values of the functions whose Api events name it (redeploys the API when they change). */
  functionNames: Map<string, string>;
  notes: SamNote[];
  /**
   * Resources that are not SAM's but that events edit (an S3 bucket's notifications, a Cognito
   * user pool's triggers), by logical id: the edited copy of their entry, the SAM resource that
   * edited them first (what the edit is attributed to), and every SAM resource that edited them.
   */
  edited: Map<string, { entry: PlainMap; by: Origin; editors: Set<string> }>;
  /** Route 53 record set groups, shared by the APIs whose custom domains are in one hosted zone. */
  route53RecordSetGroups: Map<string, GeneratedResource>;
  /** The usage plan shared by the APIs whose `Auth.UsagePlan` says `SHARED`. */
  sharedUsagePlan: SharedUsagePlan;
  /**
   * The APIs the implicit API plugins created (`ServerlessRestApi`, `ServerlessHttpApi`), whose
   * strings are SAM's own, each with the event that first called for it: what it is attributed to.
   */
  implicitApis: Map<string, Origin>;
  /** The template URLs (stand-ins) of the Serverless Application Repository applications, from the plugin's first pass. */
  applicationTemplates: ApplicationTemplates;
  /**
   * Whether each local artifact path the template names (as written, from the template's folder)
   * is there, as the caller found; a path not in it is not known, and is taken to be there.
   */
  artifacts?: LocalArtifacts;
  /**
   * The resources whose artifact path the SAM CLI fills with the template's folder, as `sam
   * package` does when it is missing (plugins/samCliPackaging.ts): their note says so, not the
   * note of a local path written.
   */
  packagedFolders?: Set<string>;
  /** Records a note once. */
  note(note: SamNote, range?: Range): void;
}

/** Whether local artifact paths (`CodeUri: hello_world/`), as written, are files or folders beside the template. */
export type LocalArtifacts = ReadonlyMap<string, boolean>;

export { ResourceReferences };
export { PASS_THROUGH_ATTRIBUTES, SamResource, SUPPORTED_ATTRIBUTES } from './samResource';
