/**
 * Risks in words: what a replacement or a removal does to the data a resource holds, a cleanup
 * that cannot delete a resource, and exports other stacks may import. The short phrase rides on
 * the change's row and lens; the problem says it in full, with what to do.
 */
import type { ChangeAction, ChangeRisk, HeldData, StackRisk } from '../impact/types';
import { impactHeading } from './impacts';
import { fittedLens } from './lens';
import { listSome } from './lists';

/** The resource a kind of data lives in, and the data itself. */
const HELD: Record<HeldData, { thing: string; contents: string }> = {
  'bucket-objects': { thing: 'bucket', contents: 'its objects' },
  'table-items': { thing: 'table', contents: 'its items' },
  'database-instance': { thing: 'database instance', contents: 'its data' },
  'database-cluster': { thing: 'database cluster', contents: 'its data' },
  'data-warehouse': { thing: 'data warehouse cluster', contents: 'its data' },
  volume: { thing: 'volume', contents: 'its data' },
  'file-system': { thing: 'file system', contents: 'its files' },
  cache: { thing: 'cache', contents: 'its data' },
  'search-domain': { thing: 'search domain', contents: 'its indices' },
  'stream-records': { thing: 'stream', contents: 'its records' },
  'queue-messages': { thing: 'queue', contents: 'its messages' },
  'log-events': { thing: 'log group', contents: 'its log events' },
  'secret-value': { thing: 'secret', contents: 'its value' },
  key: { thing: 'key', contents: 'what it encrypted (undecryptable once the key is gone)' },
  'user-pool': { thing: 'user pool', contents: 'its users' },
  'repository-images': { thing: 'repository', contents: 'its images' },
  'backup-vault': { thing: 'backup vault', contents: 'its recovery points' },
};

/** `the old table` for a replacement, `the table` for a removal. */
function theThing(holds: HeldData, action: ChangeAction): string {
  return `the ${action === 'Remove' ? '' : 'old '}${HELD[holds].thing}`;
}

/** `(UpdateReplacePolicy: Delete)`; a `Snapshot` the type cannot take says that it falls back to `Delete`. */
function policyClause(risk: Extract<ChangeRisk, { kind: 'data-loss' }>): string {
  if (risk.written === undefined || risk.written === 'Delete') return `(${risk.policy}: Delete)`;
  return `(${risk.policy}: ${risk.written}, which this type does not support, so Delete)`;
}

/** `the old resource` for a replacement, `the resource` for a removal, for a risk whose type holds no named data. */
function theResource(action: ChangeAction): string {
  return action === 'Remove' ? 'the resource' : 'the old resource';
}

/** The short phrase on a change's row and lens: `data loss: the old table and its items are deleted (UpdateReplacePolicy: Delete)`. */
export function riskPhrase(risk: ChangeRisk, action: ChangeAction): string {
  const ifReplaced = risk.possible ? 'if it is replaced, ' : '';
  switch (risk.kind) {
    case 'data-loss':
      return `${risk.possible ? 'possible data loss' : 'data loss'}: ${ifReplaced}${theThing(risk.holds, action)} and ${HELD[risk.holds].contents} are deleted ${policyClause(risk)}`;
    case 'cleanup-may-fail':
      return `cleanup may fail: ${ifReplaced}${theThing(risk.holds, action)} cannot be deleted while it holds ${HELD[risk.holds].contents.replace(/^its /, '')} and is then left behind`;
    case 'deletion-protected':
      return `cleanup fails: ${ifReplaced}${theResource(action)} has ${risk.protection} on, cannot be deleted and is left behind`;
    case 'data-kept':
      return action === 'Remove'
        ? `data kept: ${theThing(risk.holds, action)} and ${HELD[risk.holds].contents} stay in the account, outside the stack (DeletionPolicy: Retain)`
        : `data kept: ${ifReplaced}${theThing(risk.holds, action)} and ${HELD[risk.holds].contents} stay in the account, outside the stack (UpdateReplacePolicy: Retain); the new ${HELD[risk.holds].thing} starts empty`;
    case 'data-snapshot':
      return action === 'Remove'
        ? `snapshot: ${theThing(risk.holds, action)} is snapshotted, then deleted (DeletionPolicy: Snapshot)`
        : `snapshot: ${ifReplaced}${theThing(risk.holds, action)} is snapshotted, then deleted (UpdateReplacePolicy: Snapshot); the new ${HELD[risk.holds].thing} starts empty`;
  }
}

/**
 * The fate of the data on a lens, in a few words (the problem and the hover say the rest): `data
 * lost`, `old table kept · new one empty`, `old database instance snapshotted · new one empty`.
 */
export function riskLensPhrase(risk: ChangeRisk, action: ChangeAction): string {
  const maybe = risk.possible ? ' if replaced' : '';
  switch (risk.kind) {
    case 'data-loss':
      return `data lost${maybe}`;
    case 'data-kept':
      return action === 'Remove' ? `${HELD[risk.holds].thing} kept outside the stack` : `old ${HELD[risk.holds].thing} kept · new one empty${maybe}`;
    case 'data-snapshot':
      return action === 'Remove' ? 'snapshot taken, then deleted' : `old ${HELD[risk.holds].thing} snapshotted · new one empty${maybe}`;
    case 'cleanup-may-fail':
      return `cleanup may fail${maybe}`;
    case 'deletion-protected':
      return `cleanup fails: ${risk.protection} on${maybe}`;
  }
}

/** The risks of a change as a suffix for its row and lens: ` · data loss: …`; empty without risks. */
export function risksSuffix(risks: readonly ChangeRisk[] | undefined, action: ChangeAction): string {
  return (risks ?? []).map((risk) => ` · ${riskPhrase(risk, action)}`).join('');
}

/** What the change deletes: `Removing Orders deletes the table`, `If Orders is replaced, that deletes the old table`. */
function deletes(logicalId: string, action: ChangeAction, possible: boolean | undefined, thing: string): string {
  if (action === 'Remove') return `Removing ${logicalId} deletes ${thing}`;
  return possible ? `If ${logicalId} is replaced, that deletes ${thing}` : `Replacing ${logicalId} deletes ${thing}`;
}

/** A change's risk as a problem, in full, with what keeps the data. */
export function changeRiskText(logicalId: string, action: ChangeAction, risk: ChangeRisk): string {
  const completes = 'The update still completes ("Update successful. One or more resources could not be deleted.")';
  switch (risk.kind) {
    case 'data-loss': {
      const fix =
        action === 'Remove'
          ? 'To keep them, deploy DeletionPolicy: Retain (or Snapshot where the type supports it) before removing the resource: the deployed policy is the one applied.'
          : 'To keep them, set UpdateReplacePolicy: Retain (or Snapshot where the type supports it).';
      const what = deletes(logicalId, action, risk.possible, theThing(risk.holds, action));
      return `${risk.possible ? 'Possible data loss' : 'Data loss'}: ${what} and ${HELD[risk.holds].contents} ${policyClause(risk)}. ${fix}`;
    }
    case 'cleanup-may-fail': {
      const thing = theThing(risk.holds, action);
      const keep = action === 'Remove' ? 'DeletionPolicy: Retain' : 'UpdateReplacePolicy: Retain';
      return (
        `Cleanup may fail: ${deletes(logicalId, action, risk.possible, thing)}, which CloudFormation cannot do while it holds ${HELD[risk.holds].contents.replace(/^its /, '')}. ` +
        `${completes} and leaves ${thing} behind, outside the stack. ` +
        `Empty it first, or set ${keep} to keep it on purpose.`
      );
    }
    case 'data-kept': {
      const thing = theThing(risk.holds, action);
      const stays = `${risk.possible ? `If ${logicalId} is replaced, ` : ''}${thing} and ${HELD[risk.holds].contents} stay in the account, outside the stack (${risk.policy}: Retain)`;
      if (action === 'Remove') return `Data kept: ${stays}. CloudFormation no longer manages it; delete it yourself when it is no longer needed.`;
      return `Data kept: ${stays}. The new ${HELD[risk.holds].thing} starts empty: copy what the application needs into it, and delete the old one when it is no longer needed.`;
    }
    case 'data-snapshot': {
      const thing = theThing(risk.holds, action);
      const taken = `${risk.possible ? `If ${logicalId} is replaced, ` : ''}CloudFormation snapshots ${thing}, then deletes it (${risk.policy}: Snapshot)`;
      if (action === 'Remove') return `Snapshot: ${taken}. The snapshot stays in the account.`;
      return `Snapshot: ${taken}. The new ${HELD[risk.holds].thing} starts empty: restore the snapshot into it if the application needs the data.`;
    }
    case 'deletion-protected': {
      const thing = theResource(action);
      const keep = action === 'Remove' ? 'DeletionPolicy: Retain' : 'UpdateReplacePolicy: Retain';
      return (
        `Cleanup fails: ${deletes(logicalId, action, risk.possible, thing)}, which its service refuses while ${risk.protection} is on. ` +
        `${completes} and leaves ${thing} behind, outside the stack, with its data. ` +
        `Turn ${risk.protection} off in an update before this one to let it go, or set ${keep} to keep it on purpose.`
      );
    }
  }
}

/**
 * A risk to the stack in words. An export in use is worded as CloudFormation fails the update
 * ("Export … cannot be updated as it is in use by …", "Export … cannot be deleted as it is in use by …").
 */
export function stackRiskText(risk: StackRisk): string {
  switch (risk.kind) {
    case 'export-changes': {
      const what = risk.change === 'removed' ? 'is removed' : 'changes value';
      return `Export ${risk.export} (output ${risk.output}) ${what}: if another stack imports it, CloudFormation fails the update. Link the deployed stack (or use --stack in the CLI) to check its imports.`;
    }
    case 'export-in-use': {
      const importers = listSome(risk.importedBy);
      const cloudFormation =
        risk.change === 'removed' ? `Export ${risk.export} cannot be deleted as it is in use by ${importers}` : `Export ${risk.export} cannot be updated as it is in use by ${importers}`;
      return `${cloudFormation}: the update will fail and roll back (output ${risk.output}).`;
    }
  }
}

/** The lens above an export at risk: `⚠ Will fail — export shared-vpc-id is in use by app`, or what changes and why it matters. */
export function stackRiskLensTitle(risk: StackRisk): string {
  if (risk.kind === 'export-in-use') return fittedLens([`${impactHeading('will-fail')} — export ${risk.export} is in use by ${listSome(risk.importedBy)}`, `${impactHeading('will-fail')} — export ${risk.export} is in use`]);
  const what = risk.change === 'removed' ? 'is removed' : 'changes value';
  return fittedLens([`⚠ Export ${risk.export} ${what} — the update fails if another stack imports it`, `⚠ Export ${risk.export} ${what} — fails if another stack imports it`]);
}

/** The hover on an output whose export is at risk. */
export function stackRiskHoverText(risk: StackRisk): string {
  return `**⚠ Export ${risk.export}**: ${stackRiskText(risk)}`;
}

/** The verdict's clause for stack risks that make the update fail: `will fail: export Shared-VpcId is in use`; empty otherwise. */
export function stackFailureClause(risks: readonly StackRisk[] | undefined): string {
  const inUse = (risks ?? []).filter((risk) => risk.kind === 'export-in-use').map((risk) => risk.export);
  if (inUse.length === 0) return '';
  return ` · will fail: ${inUse.length === 1 ? `export ${inUse[0]} is` : `exports ${listSome(inUse)} are`} in use`;
}
