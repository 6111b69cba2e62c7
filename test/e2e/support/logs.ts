// Reads what VS Code wrote to its log folder in the test profile (extension host log, output channels).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function logFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...logFiles(path));
    else if (name.endsWith('.log')) files.push(path);
  }
  return files;
}

/** The first match of `pattern` in any log file of the profile, or undefined when none has it yet. */
export function findInLogs(userDataDir: string, pattern: RegExp): RegExpMatchArray | undefined {
  for (const file of logFiles(join(userDataDir, 'logs'))) {
    const match = readFileSync(file, 'utf8').match(pattern);
    if (match) return match;
  }
  return undefined;
}
