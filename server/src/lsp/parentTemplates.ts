/**
 * The parent of a nested stack's template opened on its own: the template whose
 * `AWS::CloudFormation::Stack` (or SAM application) names this file, chosen by the setting
 * `cfnImpact.nested.parentTemplate` or found in the workspace folder. Finding it reads the folder
 * once (bounded in files, depth and size) and keeps what it read until a file is saved or the
 * settings or folders change; open documents are read as edited.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative, resolve as resolvePath, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mayNestStacks, writtenChildPaths } from '../impact';
import { CLOUDFORMATION_TEMPLATE_LIMIT_BYTES } from '../cloudformation/templateLimits';
import { filePathOf } from './baseline/baselines';
import type { DocumentSettings } from './settings';
import type { WorkspaceFolders } from './workspaceFolders';

/** The most files looked at in one workspace folder, and how deep below it. */
const SCAN_MAX_FILES = 2000;
const SCAN_MAX_DEPTH = 8;

/** Names of template files; other files are not read. */
const TEMPLATE_EXTENSIONS = new Set(['.yaml', '.yml', '.json', '.template']);

/** Folders that hold no source templates (dependencies, build output). Folders whose name starts with a dot are skipped too. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'cdk.out']);

/** Which parent a child opened on its own takes its parameter values from. */
export type ParentChoice =
  | { kind: 'none' }
  | { kind: 'parent'; file: string; uri: string; name: string }
  | { kind: 'ambiguous'; names: string[] }
  | { kind: 'unreadable'; name: string };

/** A template that names nested stacks, and the files they name. */
interface NestingTemplate {
  file: string;
  children: ReadonlySet<string>;
}

/** An open document's file and text. */
export interface OpenTemplate {
  uri: string;
  text: string;
}

/** Finds the parents of templates, over a cached read of each workspace folder. */
export class ParentTemplates {
  private readonly scans = new Map<string, Promise<NestingTemplate[]>>();
  /** Children opened from a parent's lens, and that parent's file, until they are closed. */
  private readonly openedFrom = new Map<string, string>();

  constructor(
    private readonly workspace: WorkspaceFolders,
    private readonly openTemplates: () => readonly OpenTemplate[],
  ) {}

  /** Forgets what was read of the workspace (a file was saved, settings or folders changed). */
  invalidate(): void {
    this.scans.clear();
  }

  /**
   * Remembers that the child at `uri` was opened from the lens of the parent at `parentUri`; a
   * parent that is not a file in the child's workspace folder is not remembered.
   */
  remember(uri: string, parentUri: string): void {
    const parent = filePathOf(parentUri);
    const folder = this.workspace.folderOf(uri);
    if (parent !== undefined && folder !== undefined && this.workspace.folderOf(parentUri) === folder) this.openedFrom.set(uri, parent);
  }

  /** Forgets the parent a child was opened from (it was closed). */
  forget(uri: string): void {
    this.openedFrom.delete(uri);
  }

  /**
   * The parent of the template at `uri`: the one whose lens opened it, else the one the setting
   * names, else the only template in its workspace folder that nests it.
   */
  async choose(uri: string, settings: DocumentSettings): Promise<ParentChoice> {
    const file = filePathOf(uri);
    if (file === undefined) return { kind: 'none' };
    const folder = this.workspace.folderOf(uri);
    const openedFrom = this.openedFrom.get(uri);
    if (openedFrom !== undefined && folder !== undefined) {
      return { kind: 'parent', file: openedFrom, uri: pathToFileURL(openedFrom).href, name: nameIn(folder, openedFrom) };
    }
    if (settings.parentTemplate !== undefined) {
      const chosen = this.chosenBySetting(settings.parentTemplate, folder ?? dirname(file));
      // The setting may apply to the parent itself (a folder-wide value): a template is not its own parent.
      return chosen.kind === 'parent' && chosen.file === file ? { kind: 'none' } : chosen;
    }
    if (folder === undefined) return { kind: 'none' };
    const parents = (await this.nestingTemplates(folder)).filter((t) => t.file !== file && t.children.has(file)).map((t) => t.file);
    if (parents.length === 0) return { kind: 'none' };
    if (parents.length > 1) return { kind: 'ambiguous', names: parents.map((p) => nameIn(folder, p)).sort() };
    return { kind: 'parent', file: parents[0], uri: pathToFileURL(parents[0]).href, name: nameIn(folder, parents[0]) };
  }

  /** The setting's template, which must lie inside the workspace folder (a workspace cannot point the server at other files). */
  private chosenBySetting(setting: string, folder: string): ParentChoice {
    const file = resolvePath(folder, setting);
    const inside = relative(folder, file);
    if (isAbsolute(setting) || inside.startsWith('..') || isAbsolute(inside)) return { kind: 'unreadable', name: setting };
    return { kind: 'parent', file, uri: pathToFileURL(file).href, name: nameIn(folder, file) };
  }

  /** The templates in a folder that name nested stacks, open documents as edited. */
  private async nestingTemplates(folder: string): Promise<NestingTemplate[]> {
    let scan = this.scans.get(folder);
    if (!scan) this.scans.set(folder, (scan = scanFolder(folder)));
    const open = new Map<string, NestingTemplate | undefined>();
    for (const document of this.openTemplates()) {
      const file = filePathOf(document.uri);
      if (file === undefined || !file.startsWith(folder + sep)) continue;
      open.set(file, nestingTemplate(file, document.text));
    }
    const onDisk = (await scan).filter((t) => !open.has(t.file));
    return [...onDisk, ...[...open.values()].filter((t): t is NestingTemplate => t !== undefined)];
  }
}

/** What a template names as nested stacks, as absolute files; undefined when it names none. */
function nestingTemplate(file: string, text: string): NestingTemplate | undefined {
  if (!mayNestStacks(text)) return undefined;
  const children = writtenChildPaths(text, basename(file)).map((child) => resolvePath(dirname(file), child));
  return children.length > 0 ? { file, children: new Set(children) } : undefined;
}

/** Reads the template files under `folder`, breadth first, within the bounds; unreadable entries are passed over. */
async function scanFolder(folder: string): Promise<NestingTemplate[]> {
  const found: NestingTemplate[] = [];
  let looked = 0;
  let level = [folder];
  for (let depth = 0; depth <= SCAN_MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let entries: Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name)) next.push(path);
          continue;
        }
        if (!entry.isFile() || !TEMPLATE_EXTENSIONS.has(extname(entry.name).toLowerCase())) continue;
        if (++looked > SCAN_MAX_FILES) return found;
        const template = await readNestingTemplate(path);
        if (template) found.push(template);
      }
    }
    level = next;
  }
  return found;
}

async function readNestingTemplate(file: string): Promise<NestingTemplate | undefined> {
  try {
    if ((await stat(file)).size > CLOUDFORMATION_TEMPLATE_LIMIT_BYTES) return undefined;
    return nestingTemplate(file, await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A file's name as the person knows it: its path in the workspace folder, `/`-separated. */
function nameIn(folder: string, file: string): string {
  return relative(folder, file).split(sep).join('/');
}
