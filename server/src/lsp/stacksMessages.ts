/**
 * What a person is told when a watched deployment ends. Pure and free of any editor API, so the
 * VS Code client and other clients word it the same way.
 */
import type { DeploymentEnded } from './protocol';

export interface DeploymentMessage {
  /** `info` for a success, `warning` for a success that left resources behind, `error` for a failure. */
  severity: 'info' | 'warning' | 'error';
  text: string;
}

const MAX_LISTED = 5;

/** The one-paragraph message for a deployment that ended; resources left behind are named whatever the outcome. */
export function deploymentMessage(ended: DeploymentEnded): DeploymentMessage {
  const where = `${ended.stackName} (${ended.region})`;
  if (ended.outcome === 'failed') {
    const cause = ended.rootCause;
    const why = cause
      ? ` Root cause: ${cause.logicalId} ${cause.status}${cause.reason ? ` — ${cause.reason}` : ''}`
      : ended.reason
        ? ` ${ended.reason}`
        : '';
    const behind = ended.undeleted.length > 0 ? `${why.endsWith('.') ? '' : '.'} ${leftBehind(ended.undeleted)}` : '';
    return { severity: 'error', text: `Deployment of ${where} failed: ${ended.status}.${why}${behind}` };
  }
  if (ended.undeleted.length > 0) {
    return { severity: 'warning', text: `${where} reached ${ended.status}, but ${leftBehind(ended.undeleted)}` };
  }
  return { severity: 'info', text: `${where} reached ${ended.status}.` };
}

/** `CloudFormation could not delete these resources and left them behind: A (id), B and 3 more.` */
function leftBehind(undeleted: DeploymentEnded['undeleted']): string {
  const one = undeleted.length === 1;
  const names = undeleted.slice(0, MAX_LISTED).map((u) => (u.physicalId ? `${u.logicalId} (${u.physicalId})` : u.logicalId));
  const more = undeleted.length > MAX_LISTED ? ` and ${undeleted.length - MAX_LISTED} more` : '';
  return `CloudFormation could not delete ${one ? 'this resource' : 'these resources'} and left ${one ? 'it' : 'them'} behind: ${names.join(', ')}${more}.`;
}

