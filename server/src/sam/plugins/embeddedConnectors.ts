/**
 * Embedded connectors: a resource's `Connectors` attribute, each entry an
 * `AWS::Serverless::Connector` named `<Resource><Connector>` whose `Source` is the resource (with
 * what `SourceReference` adds). The transform adds these connectors to the template and removes
 * the attribute; what they generate is attributed to the resource's `Connectors.<Connector>`.
 */
import type { TranslationContext } from '../model/context';
import { invalidResource, SamError } from '../model/errors';
import type { Origin } from '../model/generated';
import type { ResourceOrder } from '../model/resourceOrder';
import { isMap, type PlainMap } from '../model/values';
import { SERVERLESS_TYPE_PREFIX } from '../../template/readModel';

/** The attributes an embedded connector passes on to its connector. */
const CONNECTOR_ATTRIBUTES = ['DependsOn', 'Condition', 'DeletionPolicy', 'UpdateReplacePolicy', 'Metadata', 'UpdatePolicy'];

/** Adds the embedded connectors of every resource; returns the errors, and where each connector was written. */
export function addEmbeddedConnectors(ctx: TranslationContext, order: ResourceOrder): { errors: { error: SamError; logicalId: string }[]; origins: Map<string, Origin> } {
  const errors: { error: SamError; logicalId: string }[] = [];
  const fail = (logicalId: string, error: SamError) => errors.push({ error, logicalId });
  const origins = new Map<string, Origin>();
  for (const sourceId of order.keys()) {
    const resource = ctx.resources[sourceId];
    if (!isMap(resource) || !('Connectors' in resource)) continue;
    const connectors = resource.Connectors;
    // The source resource is edited in a copy: the template as written keeps the attribute.
    const source: PlainMap = { ...resource };
    delete source.Connectors;
    ctx.resources[sourceId] = source;
    // A CloudFormation resource is written out as edited; a SAM resource is replaced by what it generates.
    if (typeof source.Type !== 'string' || !source.Type.startsWith(SERVERLESS_TYPE_PREFIX)) {
      ctx.edited.set(sourceId, { entry: source, by: { logicalId: sourceId, property: 'Connectors' }, editors: new Set([sourceId]) });
    }
    if (!isMap(connectors)) {
      fail(sourceId, invalidResource(sourceId, `Attribute '${sourceId}.Connectors' should be a map.`, ['Connectors']));
      continue;
    }
    for (const [connectorId, connector] of Object.entries(connectors)) {
      const logicalId = `${sourceId}${connectorId}`;
      const at = ['Connectors', connectorId];
      if (!isMap(connector)) {
        fail(sourceId, invalidResource(logicalId, `${sourceId}.${logicalId} should be a map.`, at));
        continue;
      }
      const properties = connector.Properties;
      if (!isMap(properties) || Object.keys(properties).length === 0) {
        fail(sourceId, invalidResource(sourceId, `Attribute 'Connectors.${connectorId}.Properties' should be a map.`, [...at, 'Properties']));
        continue;
      }
      const reference = properties.SourceReference ?? {};
      if (!isMap(reference)) {
        fail(sourceId, invalidResource(sourceId, `Property 'Connectors.${connectorId}.Properties.SourceReference' should be a map.`, [...at, 'Properties', 'SourceReference']));
        continue;
      }
      if ('Id' in reference) {
        // SAM names the connector by its key alone here.
        fail(sourceId, invalidResource(connectorId, "'Id' shouldn't be defined in 'SourceReference'.", [...at, 'Properties', 'SourceReference']));
        continue;
      }
      if (logicalId in ctx.resources) {
        fail(
          sourceId,
          new SamError(
            sourceId,
            `Transforming resource with id [${sourceId}] attempts to create a new resource with id [${logicalId}] and type "AWS::Serverless::Connector". A resource with that id already exists within this template. Please use a different id for that resource.`,
            at,
            'transform',
          ),
        );
        continue;
      }
      const { SourceReference: _reference, ...rest } = properties;
      const entry: PlainMap = { Type: 'AWS::Serverless::Connector', Properties: { ...rest, Source: { Id: sourceId, ...reference } } };
      for (const name of CONNECTOR_ATTRIBUTES) if (name in connector) entry[name] = connector[name];
      ctx.resources[logicalId] = entry;
      order.set(logicalId);
      origins.set(logicalId, { logicalId: sourceId, property: `Connectors.${connectorId}` });
    }
  }
  return { errors, origins };
}
