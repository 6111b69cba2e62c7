/**
 * SAM's DefaultDefinitionBodyPlugin: an `AWS::Serverless::Api` or `AWS::Serverless::HttpApi` that
 * gives neither a definition nor its location gets SAM's skeleton, which SAM then manages: the
 * events that name the API add their paths and integrations to it.
 */
import type { TranslationContext } from '../model/context';
import type { ResourceOrder } from '../model/resourceOrder';
import { isMap, type PlainMap } from '../model/values';
import { openApiSkeleton } from '../resources/api/openApiEditor';
import { swaggerSkeleton } from '../resources/api/swaggerEditor';

/** DefaultDefinitionBodyPlugin: an API with neither `DefinitionBody` nor `DefinitionUri` gets SAM's skeleton, managed by SAM. */
export function defaultDefinitionBodies(ctx: TranslationContext, order: ResourceOrder): void {
  for (const [type, skeleton] of [
    ['AWS::Serverless::Api', swaggerSkeleton],
    ['AWS::Serverless::HttpApi', openApiSkeleton],
  ] as const) {
    for (const id of order.keys()) {
      const entry = ctx.resources[id];
      if (!isMap(entry) || entry.Type !== type) continue;
      const properties = isMap(entry.Properties) ? entry.Properties : undefined;
      if (properties === undefined) {
        if (entry.Properties !== undefined && entry.Properties !== null) continue;
        entry.Properties = {};
      }
      const props = entry.Properties as PlainMap;
      if (props.DefinitionBody || props.DefinitionUri) continue;
      props.DefinitionBody = skeleton();
      props.__MANAGE_SWAGGER = true;
    }
  }
}
