/**
 * The local artifact paths a SAM template names as written (`CodeUri: hello_world/`), for the
 * caller to look for beside the template: the engine reads no file, and only the caller can find
 * a path with nothing there, which the transform then notes as missing (s3Location.ts).
 */
import { parseTemplate, readTemplateModel } from '../template';
import type { TemplateNode } from '../template/ast';
import { SERVERLESS_TRANSFORM } from './expand';
import { isLocalPath } from './s3Location';

/** The property of each SAM type that names an artifact `sam deploy` uploads. */
const ARTIFACT_PROPERTY: Readonly<Record<string, string>> = {
  'AWS::Serverless::Function': 'CodeUri',
  'AWS::Serverless::LayerVersion': 'ContentUri',
  'AWS::Serverless::StateMachine': 'DefinitionUri',
  'AWS::Serverless::Api': 'DefinitionUri',
  'AWS::Serverless::HttpApi': 'DefinitionUri',
};
const ARTIFACT_PROPERTIES = new Set(Object.values(ARTIFACT_PROPERTY));
/** A text that names none of these properties names no artifact: it is not parsed. */
const MAY_NAME_ARTIFACT = /CodeUri|ContentUri|DefinitionUri/;

/** The literal local paths a SAM template's resources and Globals name, each once, in template order; none for any other text. */
export function localArtifactPaths(text: string): string[] {
  if (!text.includes(SERVERLESS_TRANSFORM) || !MAY_NAME_ARTIFACT.test(text)) return [];
  const model = readTemplateModel(parseTemplate(text));
  const paths = new Set<string>();
  const add = (node: TemplateNode | undefined) => {
    if (node?.kind === 'scalar' && typeof node.value === 'string' && node.value !== '' && isLocalPath(node.value)) paths.add(node.value);
  };
  const globals = model.root?.entries.find((e) => e.key === 'Globals')?.value;
  if (globals?.kind === 'map') {
    for (const section of globals.entries) {
      if (section.value.kind !== 'map') continue;
      for (const entry of section.value.entries) if (ARTIFACT_PROPERTIES.has(entry.key)) add(entry.value);
    }
  }
  for (const decl of model.resources.values()) {
    const property = decl.type === undefined ? undefined : ARTIFACT_PROPERTY[decl.type];
    if (property === undefined || decl.properties?.kind !== 'map') continue;
    add(decl.properties.entries.find((e) => e.key === property)?.value);
  }
  return [...paths];
}
