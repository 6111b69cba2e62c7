/**
 * An edit outside the resources, in words: the lens on the edited line says what it causes
 * (`⟳ replaces PublicSubnetOne, NatGatewayOne and 1 more · ✎ updates 2`), the hover lists each
 * resource with why, and through which replaced resource a change follows.
 */
import { changesSomething } from '../impact/claims';
import type { EditEffect, EditSite, ResourceChange } from '../impact/types';
import { changeReason } from './changes';
import { impactHeading } from './impacts';
import { LENS_MAX_LENGTH } from './lens';
import { listSome, NAMES_SHOWN } from './lists';
import { generatedNoun } from './sam';

const SITE_WORDS: Readonly<Record<EditSite['kind'], string>> = {
  parameter: 'Parameter',
  'mapping-entry': 'Mapping entry',
  condition: 'Condition',
  globals: 'Globals',
};

/** What happens to a resource, as the verb of an edit's lens. */
type Fate = 'replaces' | 'removes' | 'adds' | 'updates';

const FATE_SYMBOL: Readonly<Record<Fate, string>> = { replaces: '⟳', removes: '−', adds: '+', updates: '✎' };

/** A changed resource by name; what a SAM resource generated, by its SAM resource and what it is: `HelloWorldFunction role`. */
function effectName(effect: EditEffect): string {
  return effect.generated ? `${effect.logicalId} ${generatedNoun(effect.generated.resourceType)}` : effect.logicalId;
}

function fateOf(effect: EditEffect): Fate {
  if (effect.action === 'Remove') return 'removes';
  if (effect.action === 'Add') return 'adds';
  if (effect.impact === 'replacement' || effect.impact === 'conditional-replacement') return 'replaces';
  return 'updates';
}

/**
 * The lens on an edit: the weightiest fate names its resources, the others are counted, and names
 * give way to counts until the title fits in `LENS_MAX_LENGTH` characters.
 */
export function editSiteLensTitle(site: EditSite): string {
  const byFate = new Map<Fate, string[]>();
  for (const effect of site.effects) {
    const fate = fateOf(effect);
    byFate.set(fate, [...(byFate.get(fate) ?? []), effectName(effect)]);
  }
  const fates = (['replaces', 'removes', 'adds', 'updates'] as const).filter((fate) => byFate.has(fate));
  for (let shown = NAMES_SHOWN; shown >= 0; shown--) {
    const parts = fates.map((fate, index) => {
      const names = byFate.get(fate)!;
      const what = index === 0 && shown > 0 ? listSome(names, shown) : String(names.length);
      return `${FATE_SYMBOL[fate]} ${fate} ${what}`;
    });
    const drifted = site.effects.filter((e) => e.overwritesDrift);
    const drift = drifted.length === 0 ? '' : ` · overwrites drift on ${shown > 0 ? listSome(drifted.map((e) => e.logicalId), 1) : String(drifted.length)}`;
    const title = `${parts.join(' · ')}${drift}`;
    if (title.length <= LENS_MAX_LENGTH || shown === 0) return title;
  }
  return '';
}

/** Resources listed in an edit's hover before the rest are counted. */
const HOVER_SHOWN = 12;

/** The hover on an edit: what it is, then each resource it changes with why; a change that follows a replaced resource says through which. */
export function editSiteHoverText(site: EditSite, changes: readonly ResourceChange[], replaced: ReadonlySet<string>): string {
  const count = site.effects.length;
  const lines = [`**${SITE_WORDS[site.kind]} ${site.name}**: this edit changes ${count === 1 ? '1 resource' : `${count} resources`}`, ''];
  for (const effect of site.effects.slice(0, HOVER_SHOWN)) {
    const change = changes.find((c) => changesSomething(c) && c.logicalId === (effect.generated?.logicalId ?? effect.logicalId));
    const why = change ? changeReason(change, replaced) : '';
    const through = effect.via === undefined ? '' : ` (through ${effect.via})`;
    lines.push(`- \`${effectName(effect)}\` — **${impactHeading(effect.impact)}**${why ? `: ${why}` : ''}${through}`);
  }
  if (count > HOVER_SHOWN) lines.push(`- … and ${count - HOVER_SHOWN} more`);
  return lines.join('\n');
}
