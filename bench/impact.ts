/**
 * Our full analysis against `@aws-cdk/cloudformation-diff`'s `fullDiff` on the same template
 * pairs, in the same process. Both sides start from the YAML text: ours parses it with
 * `parseTemplate` inside `analyzeUpdate`; the peer's time includes `yaml` parsing both texts
 * (with a CloudFormation tag schema) before `fullDiff`, since `cdk diff` has to read the
 * templates too. Runs are interleaved (ours, peer, ours, ...) so drift hits both alike.
 */
import { fullDiff, ResourceImpact } from '@aws-cdk/cloudformation-diff';
import { analyzeUpdate, replacedIds, type EvaluatedSide } from '../server/src/impact';
import { changeReason, replacementChain } from '../server/src/present';
import type { ImpactReport, ResourceChange } from '../server/src/impact/types';
import type { ResourceSpec } from '../server/src/spec/types';
import type { TemplatePair } from './generate';
import { median, quantile, timeMs } from './stats';
import { parseCloudFormationYaml } from './yamlText';

export interface ReplacementDisagreement {
  /** Resources both tools say are (or may be) replaced. */
  agreed: number;
  /** We say replaced (or possibly replaced), the peer does not; with our cause chain. */
  oursOnly: { logicalId: string; ours: string; peer: string; cause: string; why: DisagreementKind }[];
  /** The peer says replaced (or possibly replaced), we do not. */
  peerOnly: { logicalId: string; ours: string; peer: string }[];
}

/**
 * Why we see a replacement that `fullDiff` does not, by its cause: `fullDiff` compares template
 * text, so it neither evaluates parameters nor follows references from a replaced resource, nor
 * knows that CloudFormation re-evaluates `Fn::GetAtt` of a resource it updates (change sets mark
 * those Dynamic, Replacement Conditional).
 */
export type DisagreementKind = 'parameter value' | 'cascade from a replaced resource' | 'attribute of an updated resource' | 'other';

function disagreementKind(change: ResourceChange): DisagreementKind {
  const deciding = change.decidedBy !== undefined ? change.details[change.decidedBy] : undefined;
  const cause = change.replacementCause;
  if (change.impact === 'conditional-replacement' && deciding?.changeSource === 'ResourceAttribute' && deciding.evaluation === 'Dynamic') return 'attribute of an updated resource';
  const fromResource = (source: string | undefined) => source === 'ResourceReference' || source === 'ResourceAttribute';
  if (cause && (cause.chain.length >= 2 || fromResource(cause.root.changeSource))) return 'cascade from a replaced resource';
  if (cause?.root.changeSource === 'ParameterReference' || deciding?.changeSource === 'ParameterReference') return 'parameter value';
  if (fromResource(deciding?.changeSource)) return 'cascade from a replaced resource';
  return 'other';
}

export interface ImpactFigures {
  name: string;
  size: number;
  ours_ms: number;
  peer_ms: number;
  ratio: number;
  ours_p95_ms: number;
  peer_p95_ms: number;
  /** The peer's time without parsing the YAML, for people who want to compare diff to diff. */
  peer_diff_only_ms: number;
  /** Ours on the new text with a key typed into a resource halfway down, before its colon (YAML that does not parse), the baseline's evaluation kept as the language server keeps it. */
  key_typed_ms: number;
  runs: number;
  ours_changes: number;
  peer_changes: number;
  replacement: ReplacementDisagreement;
}

/** What `fullDiff` says, reduced to logical id → impact. */
function peerImpacts(before: string, after: string): Map<string, string> {
  const diff = fullDiff(parseCloudFormationYaml(before), parseCloudFormationYaml(after));
  const impacts = new Map<string, string>();
  diff.resources.forEachDifference((logicalId, change) => {
    if (change.isDifferent) impacts.set(logicalId, change.changeImpact ?? 'UNKNOWN');
  });
  return impacts;
}

const PEER_REPLACES = new Set<string>([ResourceImpact.WILL_REPLACE, ResourceImpact.MAY_REPLACE]);
const OURS_REPLACES = new Set(['replacement', 'conditional-replacement']);

/** Compares the two tools' replacement verdicts resource by resource. */
export function compareReplacements(report: ImpactReport, peer: Map<string, string>): ReplacementDisagreement {
  const ours = new Map(report.changes.map((change) => [change.logicalId, change]));
  const result: ReplacementDisagreement = { agreed: 0, oursOnly: [], peerOnly: [] };
  const replaced = replacedIds(report.changes);
  for (const change of report.changes) {
    if (!OURS_REPLACES.has(change.impact)) continue;
    const theirs = peer.get(change.logicalId) ?? 'no change';
    if (PEER_REPLACES.has(theirs)) result.agreed++;
    else result.oursOnly.push({ logicalId: change.logicalId, ours: change.impact, peer: theirs, cause: replacementChain(change, replaced) ?? changeReason(change, replaced), why: disagreementKind(change) });
  }
  for (const [logicalId, theirs] of peer) {
    if (!PEER_REPLACES.has(theirs)) continue;
    const mine = ours.get(logicalId);
    if (!mine || !OURS_REPLACES.has(mine.impact)) result.peerOnly.push({ logicalId, ours: mine?.impact ?? 'no change', peer: theirs });
  }
  return result;
}

/** `text` with a key being typed (`Tim`, no colon yet) below the first `Properties:` line past its middle. */
function keyTyped(text: string): string {
  const at = text.indexOf('\n    Properties:\n', text.length >> 1);
  if (at < 0) throw new Error('no Properties line past the middle of the bench template');
  const lineEnd = at + '\n    Properties:\n'.length;
  return `${text.slice(0, lineEnd)}      Tim\n${text.slice(lineEnd)}`;
}

/** Times both tools on one pair: `warmup` untimed rounds, then `runs` timed rounds, interleaved. */
export function benchImpactPair(pair: TemplatePair, spec: ResourceSpec, options: { warmup: number; runs: number }): ImpactFigures {
  const ours = () => analyzeUpdate({ text: pair.before }, { text: pair.after }, { spec });
  const peer = () => peerImpacts(pair.before, pair.after);
  const parsedBefore = parseCloudFormationYaml(pair.before);
  const parsedAfter = parseCloudFormationYaml(pair.after);
  for (let i = 0; i < options.warmup; i++) {
    ours();
    peer();
  }
  const oursMs: number[] = [];
  const peerMs: number[] = [];
  const diffOnlyMs: number[] = [];
  const keyTypedMs: number[] = [];
  const typing = keyTyped(pair.after);
  const baselines = new Map<string, EvaluatedSide>();
  const typed = () => analyzeUpdate({ text: pair.before }, { text: typing }, { spec }, { baselineCache: baselines, baselineKey: 'before' });
  typed();
  for (let i = 0; i < options.runs; i++) {
    oursMs.push(timeMs(ours));
    peerMs.push(timeMs(peer));
    diffOnlyMs.push(timeMs(() => fullDiff(parsedBefore, parsedAfter)));
    keyTypedMs.push(timeMs(typed));
  }
  const report = ours().report;
  const peerResult = peer();
  const oursMedian = median(oursMs);
  const peerMedian = median(peerMs);
  return {
    name: 'analysis',
    size: pair.size,
    ours_ms: oursMedian,
    peer_ms: peerMedian,
    ratio: oursMedian / peerMedian,
    ours_p95_ms: quantile(oursMs, 0.95),
    peer_p95_ms: quantile(peerMs, 0.95),
    peer_diff_only_ms: median(diffOnlyMs),
    key_typed_ms: median(keyTypedMs),
    runs: options.runs,
    ours_changes: report.changes.length,
    peer_changes: peerResult.size,
    replacement: compareReplacements(report, peerResult),
  };
}
