/**
 * The workspace folders the client opened, as file system paths. Settings globs match a
 * document's path relative to the folder that holds it, and parameters files are found there.
 */
import { relative, sep } from 'node:path';
import type { WorkspaceFolder } from 'vscode-languageserver';
import { filePathOf } from './baseline/baselines';

/** The open workspace folders, kept current as the client adds and removes them. */
export class WorkspaceFolders {
  private paths: string[];

  constructor(folders: WorkspaceFolder[] | undefined, rootUri: string | undefined) {
    this.paths = pathsOf(folders, rootUri);
  }

  /** Applies a change the client announced. */
  change(added: WorkspaceFolder[], removed: WorkspaceFolder[]): void {
    const gone = new Set(pathsOf(removed, undefined));
    this.paths = [...this.paths.filter((path) => !gone.has(path)), ...pathsOf(added, undefined)];
  }

  /** The innermost workspace folder that holds a document, if any. */
  folderOf(uri: string): string | undefined {
    const path = filePathOf(uri);
    if (!path) return undefined;
    let best: string | undefined;
    for (const folder of this.paths) {
      if ((path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep)) && (!best || folder.length > best.length)) best = folder;
    }
    return best;
  }

  /** The document's path relative to its workspace folder (forward slashes), which setting globs match. */
  relativePath(uri: string): string {
    const path = filePathOf(uri);
    if (!path) return uri;
    const folder = this.folderOf(uri);
    return (folder ? relative(folder, path) : path).split(sep).join('/');
  }
}

function pathsOf(folders: WorkspaceFolder[] | undefined, rootUri: string | undefined): string[] {
  const uris = folders ? folders.map((folder) => folder.uri) : rootUri ? [rootUri] : [];
  return uris.map((uri) => filePathOf(uri)).filter((path): path is string => path !== undefined);
}
