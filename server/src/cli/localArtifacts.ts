/**
 * The command line's answer to which local artifact paths of a SAM template are there: each path
 * the template names (`CodeUri: hello_world/`), looked for beside the template file on disk.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { localArtifactPaths, SERVERLESS_TRANSFORM, type LocalArtifacts } from '../sam';
import { parseTemplate, readTemplateModel } from '../template';

/** Whether each local artifact path the template at `templatePath` names is beside it; nothing for a template that is not SAM. */
export function artifactsBeside(templatePath: string, text: string): LocalArtifacts | undefined {
  if (!text.includes(SERVERLESS_TRANSFORM)) return undefined;
  const paths = localArtifactPaths(readTemplateModel(parseTemplate(text)));
  if (paths.length === 0) return undefined;
  const folder = dirname(resolve(templatePath));
  return new Map(paths.map((path) => [path, existsSync(resolve(folder, path))]));
}
