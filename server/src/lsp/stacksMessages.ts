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

/** The one-paragraph message for a deployment that ended. */
export function deploymentMessage(ended: DeploymentEnded): DeploymentMessage {
  const where = `${ended.stackName} (${ended.region})`;
  if (ended.outcome === 'failed') {
    const cause = ended.rootCause;
    const why = cause
      ? ` Root cause: ${cause.logicalId} ${cause.status}${cause.reason ? ` — ${cause.reason}` : ''}`
      : ended.reason
        ? ` ${ended.reason}`
        : '';
    return { severity: 'error', text: `Deployment of ${where} failed: ${ended.status}.${why}` };
  }
  if (ended.undeleted.length > 0) {
    const names = ended.undeleted.slice(0, MAX_LISTED).map((u) => (u.physicalId ? `${u.logicalId} (${u.physicalId})` : u.logicalId));
    const more = ended.undeleted.length > MAX_LISTED ? ` and ${ended.undeleted.length - MAX_LISTED} more` : '';
    return {
      severity: 'warning',
      text: `${where} reached ${ended.status}, but CloudFormation could not delete ${ended.undeleted.length === 1 ? 'this resource' : 'these resources'} and left ${ended.undeleted.length === 1 ? 'it' : 'them'} behind: ${names.join(', ')}${more}.`,
    };
  }
  return { severity: 'info', text: `${where} reached ${ended.status}.` };
}
