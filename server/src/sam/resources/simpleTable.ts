/**
 * `AWS::Serverless::SimpleTable` (sam_resources.py, `SamSimpleTable`): an `AWS::DynamoDB::Table`
 * with a single hash key (`id` of type string unless `PrimaryKey` says otherwise), billed per
 * request unless `ProvisionedThroughput` is given.
 */
import type { SamResource } from '../model/context';
import { invalidResource, type SamError } from '../model/errors';
import type { GeneratedResource } from '../model/generated';
import { checkProperties, dictOf, IS_DICT, IS_INT, IS_STR, oneOf, PASS_THROUGH, typed, type PropertySpec } from '../model/properties';
import { isMap, tagList } from '../model/values';

const TABLE_PROPERTIES: Record<string, PropertySpec> = {
  PointInTimeRecoverySpecification: PASS_THROUGH,
  PrimaryKey: typed(dictOf(IS_STR, IS_STR)),
  ProvisionedThroughput: typed(dictOf(IS_STR, oneOf(IS_INT, IS_DICT))),
  TableName: typed(oneOf(IS_STR, IS_DICT)),
  Tags: typed(IS_DICT),
  SSESpecification: typed(IS_DICT),
};

/** SAM's names for DynamoDB's attribute types. */
const ATTRIBUTE_TYPES: Record<string, string> = { String: 'S', Number: 'N', Binary: 'B' };

/** Translates an `AWS::Serverless::SimpleTable`. */
export function translateSimpleTable(sam: SamResource): GeneratedResource[] | SamError {
  const p = sam.properties;
  const invalid = checkProperties(sam.logicalId, sam.type, p, TABLE_PROPERTIES);
  if (invalid) return invalid;
  let key = { AttributeName: 'id' as unknown, AttributeType: 'S' };
  if (isMap(p.PrimaryKey) && Object.keys(p.PrimaryKey).length > 0) {
    const name = p.PrimaryKey.Name;
    const type = p.PrimaryKey.Type;
    if (name === undefined || name === null) return invalidResource(sam.logicalId, "Property 'PrimaryKey.Name' is required.", ['Properties', 'PrimaryKey']);
    if (type === undefined || type === null) return invalidResource(sam.logicalId, "Property 'PrimaryKey.Type' is required.", ['Properties', 'PrimaryKey']);
    const converted = typeof type === 'string' ? ATTRIBUTE_TYPES[type] : undefined;
    if (converted === undefined) return invalidResource(sam.logicalId, `Invalid 'Type' "${String(type)}".`, ['Properties', 'PrimaryKey', 'Type']);
    key = { AttributeName: name, AttributeType: converted };
  }
  const table = sam.generate(sam.logicalId, 'AWS::DynamoDB::Table', undefined, sam.attributes());
  if (sam.dependsOn !== undefined) table.setAttribute('DependsOn', sam.dependsOn);
  table.set('AttributeDefinitions', [key], 'PrimaryKey');
  table.set('KeySchema', [{ AttributeName: key.AttributeName, KeyType: 'HASH' }], 'PrimaryKey');
  if (p.PointInTimeRecoverySpecification) table.set('PointInTimeRecoverySpecification', p.PointInTimeRecoverySpecification, 'PointInTimeRecoverySpecification');
  if (p.ProvisionedThroughput) table.set('ProvisionedThroughput', p.ProvisionedThroughput, 'ProvisionedThroughput');
  else table.set('BillingMode', 'PAY_PER_REQUEST');
  if (p.SSESpecification) table.set('SSESpecification', p.SSESpecification, 'SSESpecification');
  if (p.TableName) table.set('TableName', p.TableName, 'TableName');
  if (isMap(p.Tags) && Object.keys(p.Tags).length > 0) table.set('Tags', tagList(p.Tags), 'Tags');
  return [table];
}
