/**
 * Which local artifact paths of a SAM document are there, looked up on the main thread for the
 * analysis worker, which does no I/O: each path the template names (`CodeUri: hello_world/`),
 * beside the document's file, read off the text (parsed only when the text is written so that
 * only a parse can tell). Answers are kept a few seconds, so that typing does not stat the same
 * folders on every keystroke, and a folder created or deleted is seen soon after.
 */
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { artifactPathCandidates, localArtifactPaths } from '../sam';
import { filePathOf } from './baseline/baselines';

/** How long an answer about one path is kept. */
const KEPT_MS = 3000;
/** The most paths looked up for one document: more are left unknown (taken to be there). */
const MAX_PATHS = 500;

/** Looks up local artifact paths for documents, keeping recent answers. */
export class LocalArtifactLookup {
  private readonly answers = new Map<string, { exists: boolean; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether each local artifact path the document names is beside its file; undefined for a document that is not a SAM file on disk, or names none. */
  async presenceFor(uri: string, text: string): Promise<Record<string, boolean> | undefined> {
    const path = filePathOf(uri);
    if (path === undefined) return undefined;
    // Read off the text where it allows (no parse on the thread that answers the editor): a path
    // looked for in vain costs a stat, and the worker reads only the paths it finds.
    const written = (artifactPathCandidates(text) ?? localArtifactPaths(text)).slice(0, MAX_PATHS);
    if (written.length === 0) return undefined;
    const folder = dirname(path);
    const found = await Promise.all(written.map((p) => this.exists(resolve(folder, p))));
    return Object.fromEntries(written.map((p, i) => [p, found[i]!]));
  }

  private async exists(file: string): Promise<boolean> {
    const now = this.now();
    const kept = this.answers.get(file);
    if (kept && now - kept.at < KEPT_MS) return kept.exists;
    // Anything but "no such file" (a permission error, say) is not a reason to call the path missing.
    const exists = await stat(file).then(
      () => true,
      (error: NodeJS.ErrnoException) => error.code !== 'ENOENT' && error.code !== 'ENOTDIR',
    );
    this.answers.set(file, { exists, at: now });
    if (this.answers.size > 4 * MAX_PATHS) this.answers.delete(this.answers.keys().next().value!);
    return exists;
  }
}
