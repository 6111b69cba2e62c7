/**
 * `--format github`: GitHub Actions workflow commands, so that each finding is an annotation on
 * the pull request's line, one notice per template with its verdict, and the Markdown summary
 * for the job summary page.
 */
import { fileNoticeTitle, fileVerdict } from '../../present';
import { stackHeading, stackVerdict } from '../../present/constructs';
import type { Review } from '../review';
import { reviewFindings, type ReviewFinding } from './findings';

const COMMAND = { error: 'error', warning: 'warning', note: 'notice' } as const;

/** The workflow commands for a review, one per line. */
export function renderGithub(review: Review): string {
  const lines: string[] = [];
  for (const file of review.files) {
    if (file.cdk) lines.push(command('notice', { file: file.path, title: `CloudFormation impact: ${stackHeading(file.cdk.stack, file.change)}` }, stackVerdict(file.change, file.report)));
    else lines.push(command('notice', { file: file.path, title: fileNoticeTitle(file.path, file.change) }, fileVerdict(file.change, file.report)));
  }
  for (const finding of reviewFindings(review)) lines.push(annotation(finding));
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** The workflow command for a run that could not review anything: one error annotation with the reason. */
export function renderGithubFailure(message: string): string {
  return `${command('error', { title: 'cfn-impact' }, message)}\n`;
}

function annotation(finding: ReviewFinding): string {
  const where: Record<string, string | number> = { file: finding.path };
  if (finding.region) {
    where.line = finding.region.startLine;
    where.endLine = finding.region.endLine;
    // GitHub takes columns only within one line.
    if (finding.region.startLine === finding.region.endLine) {
      where.col = finding.region.startColumn;
      where.endColumn = finding.region.endColumn;
    }
  }
  where.title = finding.title;
  return command(COMMAND[finding.kind.level], where, finding.message);
}

/** `::name key=value,...::message`, escaped as the Actions toolkit escapes commands. */
function command(name: string, properties: Record<string, string | number>, message: string): string {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return `::${name} ${props}::${escapeData(message)}`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
