/**
 * What the analysis of a child opened on its own needs of its parent: the parent's text and
 * parameter values on each side, read as the parent's own analysis reads them (its parameters
 * file, its linked stack, its git baseline), or a note saying why no parent's values are used.
 */
import { dirname, relative, sep } from 'node:path';
import { ambiguousParentsNote, parentNotUsedNote } from '../present';
import type { ParameterValues } from './analysisResult';
import type { Baseline } from './baseline/baselines';
import { filePathOf } from './baseline/baselines';
import { readChildFile } from './childFile';
import type { ParentChoice } from './parentTemplates';
import type { DocumentSettings } from './settings';
import type { ParentTemplate } from './worker/messages';

/** The parent's part in a child's analysis: what the worker evaluates, or only a note. */
export interface ParentSource {
  /** The parent's document, whose edits analyse the child again. */
  uri?: string;
  /** The parent's name in the workspace, for the words that say where the values came from. */
  name?: string;
  template?: ParentTemplate;
  /** Identifies the parent's baseline side, part of the child's baseline key. */
  baselineKey?: string;
  note?: string;
}

/** How the parent's own analysis would read it. */
export interface ParentReading {
  openText(uri: string): string | undefined;
  settingsFor(uri: string): Promise<DocumentSettings>;
  baselineFor(uri: string, settings: DocumentSettings): Promise<Baseline>;
  parametersFor(uri: string, settings: DocumentSettings, baseline: Baseline): Promise<ParameterValues>;
}

/** The parent source for the child at `childUri` under the parent choice; undefined when there is no parent. */
export async function parentSourceFor(childUri: string, choice: ParentChoice, reading: ParentReading): Promise<ParentSource | undefined> {
  if (choice.kind === 'none') return undefined;
  if (choice.kind === 'ambiguous') return { note: ambiguousParentsNote(choice.names) };
  if (choice.kind === 'unreadable') return { note: parentNotUsedNote(choice.name, 'unreadable') };
  const childFile = filePathOf(childUri);
  if (childFile === undefined) return undefined;
  const open = reading.openText(choice.uri);
  const read = open !== undefined ? { text: open } : await readChildFile(choice.file);
  if (!('text' in read)) return { note: parentNotUsedNote(choice.name, 'unreadable') };
  const settings = await reading.settingsFor(choice.uri);
  const baseline = await reading.baselineFor(choice.uri, settings);
  const parameters = await reading.parametersFor(choice.uri, settings, baseline);
  const childPath = relative(dirname(choice.file), childFile).split(sep).join('/');
  const template: ParentTemplate = {
    parentPath: relative(dirname(choice.file), choice.file),
    childPath,
    text: read.text,
    // As the parent's own analysis: a linked stack's values apply only to declared parameters.
    parameters: { values: parameters.values, onlyDeclared: parameters.source === 'stack', usePrevious: parameters.usePrevious },
  };
  let baselineKey = `${choice.uri}|none`;
  if (baseline.text !== undefined) {
    const values = baseline.parameters ?? parameters.values;
    template.baseline = { text: baseline.text, parameters: { values, onlyDeclared: baseline.parameters === undefined } };
    baselineKey = `${choice.uri}|${baseline.generation}|${JSON.stringify(values)}`;
  }
  return { uri: choice.uri, name: choice.name, template, baselineKey };
}
