/**
 * Mutations of real templates from ../shared/corpus/: character flips, truncation, splicing of
 * two templates, deleted and duplicated lines, shifted indentation and swapped intrinsic tags.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

/** Where the shared corpus is, relative to this folder. */
export const CORPUS_DIR = join(__dirname, '..', '..', '..', 'shared', 'corpus');

/** The corpus templates' texts (YAML and JSON), or why there are none. */
export function loadCorpus(dir = CORPUS_DIR): { texts: string[] } | { absent: string } {
  if (!existsSync(dir)) return { absent: `no corpus at ${dir}` };
  const texts: string[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ya?ml|json)$/i.test(name)) texts.push(readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return texts.length > 0 ? { texts } : { absent: `no templates under ${dir}` };
}

/** Characters that change a template's structure when they appear in the wrong place. */
const STRUCTURAL = ['{', '}', '[', ']', ':', ',', '-', ' ', '\n', '\t', '"', "'", '!', '&', '*', '#', '|', '>', '%', '@', '`', '\u0000', '\uFEFF', '\uD800', 'x', '0'];

const TAGS = ['!Ref', '!GetAtt', '!Sub', '!Join', '!Select', '!Split', '!If', '!FindInMap', '!Equals', '!Condition', '!Not', '!Base64', '!GetAZs', '!Cidr', '!ImportValue', '!Bogus'];
const LONG_FORMS = ['"Ref"', '"Fn::GetAtt"', '"Fn::Sub"', '"Fn::Join"', '"Fn::Select"', '"Fn::Split"', '"Fn::If"', '"Fn::FindInMap"', '"Fn::Equals"', '"Condition"', '"Fn::Bogus"'];

type Mutation = (text: string, other: string) => string;

const at = (text: string, fraction: number): number => Math.floor(fraction * text.length);
const lineSpan = (text: string, fraction: number): [number, number] => {
  const start = text.lastIndexOf('\n', at(text, fraction)) + 1;
  const end = text.indexOf('\n', start);
  return [start, end < 0 ? text.length : end + 1];
};

/** One mutation with its parameters drawn by fast-check; fractions place it in the text. */
const mutationArbitrary: fc.Arbitrary<{ name: string; apply: Mutation }> = fc.oneof(
  fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.constantFrom(...STRUCTURAL)), { minLength: 1, maxLength: 8 }).map((flips) => ({
    name: `flip ${flips.length} characters`,
    apply: (text: string) => {
      const chars = text.split('');
      for (const [where, char] of flips) if (chars.length > 0) chars[at(text, where)] = char;
      return chars.join('');
    },
  })),
  fc.double({ min: 0, max: 1, noNaN: true }).map((where) => ({ name: 'truncate', apply: (text: string) => text.slice(0, at(text, where)) })),
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })).map(([a, b]) => ({
    name: 'splice with another template',
    apply: (text: string, other: string) => text.slice(0, at(text, a)) + other.slice(at(other, b)),
  })),
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.integer({ min: 1, max: 5 })).map(([where, count]) => ({
    name: `delete ${count} lines`,
    apply: (text: string) => {
      const start = lineSpan(text, where)[0];
      let end = lineSpan(text, where)[1];
      for (let i = 1; i < count && end < text.length; i++) end = lineSpan(text, end / text.length)[1];
      return text.slice(0, start) + text.slice(end);
    },
  })),
  fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }).map((where) => ({
    name: 'duplicate a line',
    apply: (text: string) => {
      const [start, end] = lineSpan(text, where);
      return text.slice(0, end) + text.slice(start, end) + text.slice(end);
    },
  })),
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.constantFrom('  ', ' ', '')).map(([where, indent]) => ({
    name: 'shift indentation',
    apply: (text: string) => {
      const [start, end] = lineSpan(text, where);
      const line = text.slice(start, end);
      return text.slice(0, start) + (indent === '' ? line.replace(/^ {1,2}/, '') : indent + line) + text.slice(end);
    },
  })),
  fc.tuple(fc.nat(50), fc.constantFrom(...TAGS), fc.constantFrom(...LONG_FORMS)).map(([nth, tag, longForm]) => ({
    name: `swap the ${nth}th tag for ${tag}`,
    apply: (text: string) => {
      const pattern = /!(Ref|GetAtt|Sub|Join|Select|Split|If|FindInMap|Equals|Condition|Not|And|Or|Base64|GetAZs|Cidr|ImportValue)\b|"(Ref|Fn::\w+|Condition)"/g;
      const matches = [...text.matchAll(pattern)];
      if (matches.length === 0) return text;
      const m = matches[nth % matches.length]!;
      const replacement = m[0].startsWith('"') ? longForm : tag;
      return text.slice(0, m.index) + replacement + text.slice(m.index! + m[0].length);
    },
  })),
);

/** A mutated corpus template: one to three mutations of one template, another template to splice from. */
export function mutatedTemplateArbitrary(texts: readonly string[]): fc.Arbitrary<{ original: string; mutated: string; steps: string[] }> {
  return fc
    .tuple(fc.nat(texts.length - 1), fc.nat(texts.length - 1), fc.array(mutationArbitrary, { minLength: 1, maxLength: 3 }))
    .map(([i, j, mutations]) => {
      const original = texts[i]!;
      let mutated = original;
      for (const m of mutations) mutated = m.apply(mutated, texts[j]!);
      return { original, mutated, steps: mutations.map((m) => m.name) };
    });
}
