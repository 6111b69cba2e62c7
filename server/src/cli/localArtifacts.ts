/**
 * The command line's answer to which local artifact paths of a SAM template are there: each path
 * the template names (`CodeUri: hello_world/`), looked for beside the template file on disk, or,
 * for a review of a branch, beside the template at the head of the range.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathExistsAt, type ReviewRange } from '../git/changedFiles';
import { folderOf, joinPath } from '../impact';
import { localArtifactPaths, type LocalArtifacts } from '../sam';

/** The most paths one template's review looks up in git: more are left unknown (taken to be there). */
const MAX_PATHS_IN_GIT = 200;

/** Whether each local artifact path the template at `templatePath` names is beside it; nothing for a template that is not SAM. */
export function artifactsBeside(templatePath: string, text: string): LocalArtifacts | undefined {
  const paths = localArtifactPaths(text);
  if (paths.length === 0) return undefined;
  const folder = dirname(resolve(templatePath));
  return new Map(paths.map((path) => [path, existsSync(resolve(folder, path))]));
}

/**
 * Whether each local artifact path the template at `templatePath` (from the top of the
 * repository) names is there at the head of `range`; a path that leads out of the repository is
 * not looked for.
 */
export async function artifactsAtHead(range: ReviewRange, templatePath: string, text: string): Promise<LocalArtifacts | undefined> {
  const paths = localArtifactPaths(text).slice(0, MAX_PATHS_IN_GIT);
  const found = new Map<string, boolean>();
  for (const path of paths) {
    const inRepository = joinPath(folderOf(templatePath), path).replace(/\/+$/, '');
    if (inRepository === '' || inRepository.startsWith('/') || inRepository.split('/')[0] === '..') continue;
    const exists = await pathExistsAt(range, inRepository, 'head');
    if (exists !== undefined) found.set(path, exists);
  }
  return found.size > 0 ? found : undefined;
}
