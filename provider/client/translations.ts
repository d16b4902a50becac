/** Translation operations (v2): upsert one locale, get or delete it, and a resource's group of locales. */
import { Translation, TranslationGroup, type TRANSLATION_RESOURCE_TYPES } from "../schemas";
import type { RequestBody } from "../../spec/operations";
import type { HttpTransport } from "./http";

/** `workflow` or `layout`. */
export type TranslationResourceType = (typeof TRANSLATION_RESOURCE_TYPES)[number];

/** `/v2/translations` */
export class TranslationsApi {
  constructor(private readonly http: HttpTransport) {}

  /** `POST /v2/translations`: creates the locale's translation or replaces its content whole (200 either way). */
  upsert(body: RequestBody<"TranslationController_createTranslationEndpoint">): Promise<Translation> {
    return this.http.request({
      operation: `set translation ${body.resourceType}/${body.resourceId}/${body.locale}`, method: "POST", route: "/v2/translations", body, schema: Translation,
    });
  }

  /** `GET /v2/translations/{resourceType}/{resourceId}/{locale}` */
  get(resourceType: TranslationResourceType, resourceId: string, locale: string): Promise<Translation> {
    return this.http.request({
      operation: `get translation ${resourceType}/${resourceId}/${locale}`, method: "GET", route: "/v2/translations/{resourceType}/{resourceId}/{locale}",
      params: { resourceType, resourceId, locale }, schema: Translation,
    });
  }

  /** `DELETE /v2/translations/{resourceType}/{resourceId}/{locale}` (404 when it does not exist). */
  async delete(resourceType: TranslationResourceType, resourceId: string, locale: string): Promise<void> {
    await this.http.request({
      operation: `delete translation ${resourceType}/${resourceId}/${locale}`, method: "DELETE", route: "/v2/translations/{resourceType}/{resourceId}/{locale}",
      params: { resourceType, resourceId, locale }, schema: undefined,
    });
  }

  /** `GET /v2/translations/group/{resourceType}/{resourceId}`: the resource's locales. */
  group(resourceType: TranslationResourceType, resourceId: string): Promise<TranslationGroup> {
    return this.http.request({
      operation: `get the translations of ${resourceType} ${resourceId}`, method: "GET", route: "/v2/translations/group/{resourceType}/{resourceId}",
      params: { resourceType, resourceId }, schema: TranslationGroup,
    });
  }
}
