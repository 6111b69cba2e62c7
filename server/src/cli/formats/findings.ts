/**
 * A review as a flat list of findings, each with its kind and its place in the new template: what
 * pull request annotations and SARIF results are made of.
 */
import { changesSomething, replacedIds } from '../../impact/claims';
import type { ResourceChange } from '../../impact/types';
import { changeKind, changeReason, changeTitle, decisiveDetails, diagnosticKind, diagnosticText, REJECTED_KIND, type FindingKind } from '../../present';
import type { CdkStackView, Review, ReviewedFile } from '../review';
import { isAbsolute, relative, sep } from 'node:path';
import { isCdkMetadata } from '../../cdk/cdkTemplate';
import { sourceOfTrace } from '../../cdk/constructs';
import { constructChangeReason } from '../../present/constructs';

/** A place in a file, 1-based, the end column just past the last character. */
export interface Region {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export interface ReviewFinding {
  kind: FindingKind;
  title: string;
  message: string;
  /** The template the finding is about, relative as the review names it. */
  path: string;
  /** Where in the new template; absent when the finding has no place there (a removed resource, the whole file). */
  region?: Region;
  logicalId?: string;
}

/** Every finding of a review, file by file: resource changes that change something, then diagnostics. */
export function reviewFindings(review: Review): ReviewFinding[] {
  return review.files.flatMap(fileFindings);
}

function fileFindings(file: ReviewedFile): ReviewFinding[] {
  const report = file.report;
  if (!report) return [];
  const region = (range: { start: number; end: number } | undefined, side: 'old' | 'new'): Region | undefined => {
    if (!range || side !== 'new') return undefined;
    const start = file.files.new.lines.positionAt(range.start);
    const end = file.files.new.lines.positionAt(range.end);
    return { startLine: start.line + 1, startColumn: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 };
  };
  const findings: ReviewFinding[] = [];
  const replaced = replacedIds(report.changes);
  const cdk = file.cdk;
  for (const change of report.changes) {
    const kind = changeKind(change);
    if (!kind || !changesSomething(change) || (cdk && isCdkMetadata(change))) continue;
    if (cdk) {
      findings.push({ kind, title: changeTitle(change), message: `${cdk.names.get(change.logicalId) ?? change.logicalId}: ${constructChangeReason(change, replaced, cdk.renames, cdk.names)}`, ...constructPlace(change, file, cdk, region), logicalId: change.logicalId });
      continue;
    }
    findings.push({ kind, title: changeTitle(change), message: `${change.logicalId}: ${changeReason(change, replaced)}`, path: file.path, region: changeRegion(change, region), logicalId: change.logicalId });
  }
  for (const diagnostic of report.diagnostics) {
    const text = diagnosticText(diagnostic);
    const kind = diagnosticKind(diagnostic, text);
    findings.push({ kind, title: kind.name, message: text, path: file.path, region: region(diagnostic.range, diagnostic.rangeIn), logicalId: diagnostic.logicalId });
  }
  if (report.status === 'error' && !report.diagnostics.some((d) => d.severity === 'error')) {
    findings.push({ kind: REJECTED_KIND, title: REJECTED_KIND.name, message: report.message ?? '', path: file.path });
  }
  return findings;
}

/**
 * A CDK change's place: the line of the app's code that created its construct, when the assembly
 * recorded it (relative to the working folder when inside it), else its place in the template.
 */
function constructPlace(change: ResourceChange, file: ReviewedFile, cdk: CdkStackView, region: (range: { start: number; end: number } | undefined, side: 'old' | 'new') => Region | undefined): { path: string; region?: Region } {
  const construct = (change.action === 'Remove' ? cdk.constructs.old : cdk.constructs.new).get(change.logicalId);
  const source = sourceOfTrace(construct?.trace);
  if (source === undefined) return { path: file.path, region: changeRegion(change, region) };
  const inside = relative(process.cwd(), source.file);
  const path = inside.startsWith('..') || isAbsolute(inside) ? source.file : inside.split(sep).join('/');
  return { path, region: { startLine: source.line, startColumn: source.column, endLine: source.line, endColumn: source.column } };
}

/** A change's place: the property that decides it when that is in the new template, else the resource's key there. */
function changeRegion(change: ResourceChange, region: (range: { start: number; end: number } | undefined, side: 'old' | 'new') => Region | undefined): Region | undefined {
  const decisive = decisiveDetails(change).find((d) => d.range && d.rangeIn === 'new');
  return (decisive && region(decisive.range, decisive.rangeIn)) ?? region(change.range, change.rangeIn);
}
