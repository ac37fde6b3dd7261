/**
 * The few OpenAPI 3.1 shapes the description is written in. Schemas are plain JSON Schema 2020-12 (OpenAPI 3.1's
 * dialect) with no OpenAPI-only keywords, so ajv's 2020 draft compiles them as they are (test/helpers/openapi.ts).
 */

/** A JSON Schema 2020-12 object. Loose on purpose: the shape is checked by swagger-parser in the tests. */
export type Schema = Record<string, unknown>;

export interface Ref {
  $ref: string;
}

export interface Example {
  summary?: string;
  value: unknown;
}

export interface MediaType {
  schema: Schema;
  examples?: Record<string, Example>;
  encoding?: Record<string, { contentType?: string }>;
}

export interface Header {
  description: string;
  /** Always sent with this response (test/helpers/openapi.ts checks it is there). */
  required?: boolean;
  schema: Schema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, Header | Ref>;
  content?: Record<string, MediaType>;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  description: string;
  required?: boolean;
  schema: Schema;
  example?: unknown;
}

export interface RequestBody {
  description?: string;
  required?: boolean;
  content: Record<string, MediaType>;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** `[]` for the routes that need no token; absent = the document's default (bearer). */
  security?: Array<Record<string, string[]>>;
  parameters?: Array<Parameter | Ref>;
  requestBody?: RequestBody;
  responses: Record<string, ResponseObject | Ref>;
}

export type Method = 'get' | 'put' | 'post' | 'delete';

export type PathItem = Partial<Record<Method, Operation>> & { parameters?: Array<Parameter | Ref> };

/**
 * One area of the API (documents, templates, tokens…): its paths and the schemas only it uses. Adding an area is
 * one file exporting this and one line in index.ts.
 */
export interface Area {
  tag: { name: string; description: string };
  paths: Record<string, PathItem>;
  schemas?: Record<string, Schema>;
  /**
   * What the area adds to the others', run once every area's paths and schemas are in: a field it puts on a
   * document, a filter it adds to a list. Keeps a new area one file even when it touches existing resources.
   */
  extend?(parts: { paths: Record<string, PathItem>; schemas: Record<string, Schema> }): void;
}
