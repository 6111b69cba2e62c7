/**
 * Parameter values for edited templates: the parameters file the settings configure for the
 * template, else the linked stack's values, else the defaults. Files are read again only when
 * they changed on disk.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import { readParameterFile, type ParameterFileResult } from '../evaluate/parameterFile';
import type { ParameterValues } from './analysisResult';
import { filePathOf, type Baseline } from './baseline/baselines';
import { lookupByGlob } from '../git/glob';
import { fileParameterValues } from './parameterValues';
import type { DocumentSettings } from './settings';
import type { WorkspaceFolders } from './workspaceFolders';

/** The configured parameters files, as last read, by path. */
export class ParameterFiles {
  private readonly byPath = new Map<string, { mtimeMs: number; read: ParameterFileResult }>();

  constructor(private readonly workspace: WorkspaceFolders) {}

  /** Parameter values for the edited template: the configured file, else the stack's values, else defaults. */
  async valuesFor(uri: string, settings: DocumentSettings, baseline: Baseline): Promise<ParameterValues> {
    const configured = lookupByGlob(settings.parameterFiles, this.workspace.relativePath(uri));
    if (configured) {
      const folder = this.workspace.folderOf(uri) ?? dirname(filePathOf(uri) ?? '.');
      const path = isAbsolute(configured) ? configured : resolvePath(folder, configured);
      return fileParameterValues(await this.read(path), path, baseline.parameters);
    }
    if (baseline.parameters) return { values: baseline.parameters, source: 'stack' };
    return { values: {}, source: 'defaults' };
  }

  /** Forgets every file read (the settings changed). */
  clear(): void {
    this.byPath.clear();
  }

  /** Reads a parameters file, again only when it changed on disk. */
  private async read(path: string): Promise<ParameterFileResult> {
    try {
      const info = await stat(path);
      const cached = this.byPath.get(path);
      if (cached && cached.mtimeMs === info.mtimeMs) return cached.read;
      const read = readParameterFile(await readFile(path, 'utf8'));
      this.byPath.set(path, { mtimeMs: info.mtimeMs, read });
      return read;
    } catch (error) {
      return { ok: false, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
    }
  }
}
