/**
 * `--format sarif`: a SARIF 2.1.0 log, for code scanning. One rule per kind of finding (each
 * kind of resource change, a rejected update, and each kind of diagnostic that occurs), and one
 * result per finding, located at the resource or property in the new template.
 */
import { changeKinds, REJECTED_KIND, type FindingKind } from '../../present';
import type { Review } from '../review';
import { reviewFindings } from './findings';

const INFORMATION_URI = 'https://github.com/cfn-impact/cloudformation-impact';

/** A SARIF 2.1.0 log for a run that failed before any analysis: no results, and the reason as a notification. */
export function renderFailedSarif(message: string): string {
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'cfn-impact', informationUri: INFORMATION_URI } },
        invocations: [{ executionSuccessful: false, toolExecutionNotifications: [{ level: 'error', message: { text: message } }] }],
        results: [],
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** The review as a SARIF 2.1.0 log. */
export function renderSarif(review: Review): string {
  const findings = reviewFindings(review);
  const rules: FindingKind[] = [...changeKinds(), REJECTED_KIND];
  for (const finding of findings) if (!rules.some((r) => r.id === finding.kind.id)) rules.push(finding.kind);
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'cfn-impact',
            informationUri: INFORMATION_URI,
            rules: rules.map((rule) => ({
              id: rule.id,
              name: rule.name,
              shortDescription: { text: rule.name },
              fullDescription: { text: rule.description },
              defaultConfiguration: { level: rule.level },
            })),
          },
        },
        results: findings.map((finding) => ({
          ruleId: finding.kind.id,
          ruleIndex: ruleIndex.get(finding.kind.id),
          level: finding.kind.level,
          message: { text: finding.message },
          locations: [
            {
              physicalLocation: { artifactLocation: { uri: encodeURI(finding.path) }, ...(finding.region ? { region: finding.region } : {}) },
              ...(finding.logicalId ? { logicalLocations: [{ name: finding.logicalId, kind: 'resource' }] } : {}),
            },
          ],
        })),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
