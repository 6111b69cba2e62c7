/**
 * SAM's translator suite (`../shared/sam-translator-tests`, not part of the project): where it is,
 * and its valid inputs as the analysis reads them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TRANSLATOR_SUITE = join(__dirname, '..', '..', '..', '..', 'shared', 'sam-translator-tests');

/** The `skip` option of a suite that reads it: false, or why it is skipped. */
export const SKIP_WITHOUT_TRANSLATOR_SUITE: false | string = existsSync(TRANSLATOR_SUITE) ? false : `${TRANSLATOR_SUITE} is absent`;

/** Each valid input (not `error_*`), with its text. */
export function validTranslatorInputs(): { file: string; text: string }[] {
  const inputs = join(TRANSLATOR_SUITE, 'input');
  return readdirSync(inputs)
    .filter((f) => f.endsWith('.yaml') && !f.startsWith('error_'))
    .map((file) => ({ file, text: readFileSync(join(inputs, file), 'utf8') }));
}
