/**
 * Local paths in the properties `aws cloudformation package` (and `sam package`, which shares its
 * exporter) uploads before CloudFormation sees the template: `Code: ./src` of a Lambda function
 * becomes the S3 location of the folder's zip. The comparison reads the path as written, which
 * stands for that location (the same path, the same upload; another path, another location);
 * what the files hold is not in the template, and a note at the path says so.
 */
import type { EvaluationNote } from '../evaluate';
import type { TemplateModel, TemplateNode } from '../template';

/** The properties the AWS CLI's `package` uploads when they name a local path, by resource type (docs/update-rules.md#cloudformation-package). */
const PACKAGED_PROPERTIES: Readonly<Record<string, readonly (readonly string[])[]>> = {
  'AWS::ApiGateway::RestApi': [['BodyS3Location']],
  'AWS::Lambda::Function': [['Code']],
  'AWS::Lambda::LayerVersion': [['Content']],
  'AWS::AppSync::GraphQLSchema': [['DefinitionS3Location']],
  'AWS::AppSync::Resolver': [['RequestMappingTemplateS3Location'], ['ResponseMappingTemplateS3Location']],
  'AWS::AppSync::FunctionConfiguration': [['RequestMappingTemplateS3Location'], ['ResponseMappingTemplateS3Location']],
  'AWS::ElasticBeanstalk::ApplicationVersion': [['SourceBundle']],
  'AWS::Glue::Job': [['Command', 'ScriptLocation']],
  'AWS::StepFunctions::StateMachine': [['DefinitionS3Location']],
  'AWS::CodeCommit::Repository': [['Code', 'S3']],
};

/** A value the packager reads as a local path: a string that is not a URL (`s3://`, `https://`). */
function localPath(node: TemplateNode | undefined): string | undefined {
  if (node?.kind !== 'scalar' || typeof node.value !== 'string' || node.value === '') return undefined;
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(node.value) ? undefined : node.value;
}

/** The node at a path of keys below a map, if every step is a map entry. */
function below(node: TemplateNode | undefined, keys: readonly string[]): TemplateNode | undefined {
  let at = node;
  for (const key of keys) at = at?.kind === 'map' ? at.entries.find((e) => e.key === key)?.value : undefined;
  return at;
}

/** A note at each local path a packaged property of the template names, in template order. */
export function packagedArtifactNotes(model: TemplateModel): EvaluationNote[] {
  const notes: EvaluationNote[] = [];
  for (const decl of model.resources.values()) {
    for (const keys of (decl.type === undefined ? undefined : PACKAGED_PROPERTIES[decl.type]) ?? []) {
      const node = below(decl.properties, keys);
      const path = localPath(node);
      if (path !== undefined) notes.push({ kind: 'packaged-artifact', logicalId: decl.logicalId, property: keys.join('.'), path, range: node!.range });
    }
  }
  return notes;
}
