/**
 * Citations cannot rot. Comments, tests and pages cite the project's documentation as
 * `docs/<page>.md#<anchor>` and cite experiments as "(run N)"; this suite reads every TypeScript
 * and Markdown file of the repository and fails on a cited page, anchor or run that docs/ does
 * not have, on a relative Markdown link that leads nowhere, on a repository path a docs page
 * names that no longer exists, and on a citation of reference material outside the repository.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, test } from 'node:test';

const root = join(__dirname, '..', '..', '..');
const docsDir = join(root, 'docs');
const rulesPage = join(docsDir, 'update-rules.md');

/** Folders holding what we write; installed, built, generated and cached files are not ours to check. */
const SCANNED_FOLDERS = ['server', 'client', 'test', 'scripts', 'bench', 'examples', 'docs'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'generated', '.cache', 'test-artifacts']);
const SCANNED_FILE = /\.(ts|mts|cts|mjs|md)$/;

/** A page of docs/ cited from anywhere: `docs/update-rules.md#no-op`. Paths under another folder (`x/docs/`) are not ours. */
const DOCS_CITATION = /(?<![\w./-])docs\/([\w./-]*[\w-]\.md)(?:#([\w-]+))?/g;
/**
 * An experiment cited by number: "run 17", "runs 4, 7", "runs 12-14, 22-24", "Runs 4 and 7".
 * A number followed by a thousands separator ("runs 100,000 events") is a count, not a run.
 */
const RUN_CITATION = /\b[Rr]uns? (\d+(?:(?:,? and |, |\s?[-–]\s?)\d+)*)(?!\d|,\d)/g;
/** A Markdown link or image: `[text](target)`. */
const MARKDOWN_LINK = /\[[^\]\n]*\]\(([^)\s]+)\)/g;
/** A repository path in backticks on a docs page: `server/src/impact/analyze.ts`. */
const REPOSITORY_PATH = /`((?:server|client|test|scripts|bench|examples|syntaxes|images)\/[^`\s]*)`/g;
/**
 * The reference material the rules were distilled from lives outside the repository; a fresh
 * clone does not have it, so nothing may send a reader there.
 */
const OUTSIDE_MATERIAL = /update-semantics|shared\/docs|shared\/seeds|seeds\/\d|\b\d{3}_[0-9a-f]{16}\.txt/g;

interface SourceFile {
  path: string;
  /** Relative to the repository, with forward slashes, for messages. */
  name: string;
  text: string;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return SKIPPED_FOLDERS.has(entry) ? [] : filesUnder(path);
    return SCANNED_FILE.test(entry) ? [path] : [];
  });
}

function repositoryFiles(): SourceFile[] {
  const paths = [
    ...readdirSync(root).filter((entry) => entry.endsWith('.md')).map((entry) => join(root, entry)),
    ...SCANNED_FOLDERS.filter((folder) => existsSync(join(root, folder))).flatMap((folder) => filesUnder(join(root, folder))),
  ];
  return paths.map((path) => ({ path, name: relative(root, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }));
}

/** The 1-based line of an offset, for messages a person can jump to. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Markdown text with fenced code blocks blanked out (lines kept), so that code is not read as links or headings. */
function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ' '));
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, each space a hyphen. */
function headingSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor of a Markdown page: explicit `<a id="…">` anchors and heading slugs. */
function anchorsOf(markdown: string): Set<string> {
  const text = withoutCodeBlocks(markdown);
  const anchors = new Set<string>();
  for (const match of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) anchors.add(headingSlug(match[1]));
  return anchors;
}

/** The numbers of a run citation's list: "12-14, 22" is 12, 13, 14 and 22. */
function runNumbers(list: string): number[] {
  const numbers: number[] = [];
  for (const part of list.split(/,? and |, /)) {
    const [from, to = from] = part.split(/\s?[-–]\s?/).map(Number);
    for (let n = from; n <= to && n - from <= 100; n++) numbers.push(n);
  }
  return numbers;
}

const files = repositoryFiles();
const anchorCache = new Map<string, Set<string> | undefined>();

/** The anchors of a Markdown file, or undefined when it does not exist. */
function anchorsOfFile(path: string): Set<string> | undefined {
  if (!anchorCache.has(path)) anchorCache.set(path, existsSync(path) && statSync(path).isFile() ? anchorsOf(readFileSync(path, 'utf8')) : undefined);
  return anchorCache.get(path);
}

/** The experiments update-rules.md lists, by their `run-N` anchors. */
function documentedRuns(): Set<number> {
  const runs = new Set<number>();
  for (const anchor of anchorsOfFile(rulesPage) ?? []) {
    const match = /^run-(\d+)$/.exec(anchor);
    if (match) runs.add(Number(match[1]));
  }
  return runs;
}

describe('citations of docs/ resolve', () => {
  test('every cited docs page exists and has the cited anchor', () => {
    const problems: string[] = [];
    let citations = 0;
    for (const file of files) {
      for (const match of file.text.matchAll(DOCS_CITATION)) {
        citations++;
        const [, page, anchor] = match;
        const where = `${file.name}:${lineAt(file.text, match.index!)}`;
        const anchors = anchorsOfFile(join(docsDir, page));
        if (anchors === undefined) problems.push(`${where}: docs/${page} does not exist`);
        else if (anchor !== undefined && !anchors.has(anchor)) problems.push(`${where}: docs/${page} has no anchor #${anchor}`);
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(citations > 0, 'the scan found citations of docs/ (it is not looking in the wrong place)');
  });

  test('every cited experiment is in the list of experiments of docs/update-rules.md', () => {
    const runs = documentedRuns();
    const problems: string[] = [];
    let citations = 0;
    for (const file of files) {
      for (const match of file.text.matchAll(RUN_CITATION)) {
        const where = `${file.name}:${lineAt(file.text, match.index!)}`;
        for (const run of runNumbers(match[1])) {
          citations++;
          if (!runs.has(run)) problems.push(`${where}: run ${run} is not in docs/update-rules.md#experiments`);
        }
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(citations > 0, 'the scan found run citations');
  });

  test('the experiments are numbered from 1 without gaps, so that a number is never reused', () => {
    const runs = [...documentedRuns()].sort((a, b) => a - b);
    assert.ok(runs.length > 0, 'docs/update-rules.md lists experiments');
    assert.deepEqual(runs, runs.map((_, i) => i + 1));
  });

  test('explicit anchors are unique on each docs page', () => {
    const problems: string[] = [];
    for (const file of files.filter((f) => f.name.startsWith('docs/'))) {
      const seen = new Set<string>();
      for (const match of withoutCodeBlocks(file.text).matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) {
        if (seen.has(match[1])) problems.push(`${file.name}:${lineAt(file.text, match.index!)}: #${match[1]} appears twice`);
        seen.add(match[1]);
      }
    }
    assert.deepEqual(problems, []);
  });
});

describe('links and paths in Markdown resolve', () => {
  test('every relative link of a Markdown page leads to a file, and to an anchor it has', () => {
    const problems: string[] = [];
    for (const file of files.filter((f) => f.name.endsWith('.md'))) {
      const text = withoutCodeBlocks(file.text);
      for (const match of text.matchAll(MARKDOWN_LINK)) {
        const target = match[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const where = `${file.name}:${lineAt(text, match.index!)}`;
        const [pathPart, anchor] = target.split('#');
        const path = pathPart === '' ? file.path : join(dirname(file.path), decodeURIComponent(pathPart));
        if (!existsSync(path)) {
          problems.push(`${where}: ${target} leads nowhere`);
          continue;
        }
        if (anchor !== undefined && path.endsWith('.md') && !anchorsOfFile(path)?.has(anchor)) {
          problems.push(`${where}: ${target} has no such anchor`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  test('every repository path a docs page names exists', () => {
    const problems: string[] = [];
    for (const file of files.filter((f) => f.name.startsWith('docs/'))) {
      for (const match of file.text.matchAll(REPOSITORY_PATH)) {
        const path = match[1].replace(/\/$/, '');
        // Patterns and placeholders (`server/src/{template,evaluate}`, `API_<Action>`) name no single file.
        if (/[{}<>*…]/.test(path)) continue;
        if (!existsSync(join(root, path))) problems.push(`${file.name}:${lineAt(file.text, match.index!)}: ${path} does not exist`);
      }
    }
    assert.deepEqual(problems, []);
  });
});

describe('nothing cites material outside the repository', () => {
  test('no file sends a reader to the reference material the rules were distilled from', () => {
    const self = relative(root, __filename).split('\\').join('/');
    const problems: string[] = [];
    for (const file of files) {
      // This file names the patterns it looks for.
      if (file.name === self) continue;
      for (const match of file.text.matchAll(OUTSIDE_MATERIAL)) {
        problems.push(`${file.name}:${lineAt(file.text, match.index!)}: cites ${match[0]}; cite docs/ instead`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
