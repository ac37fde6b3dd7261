/** Puts templates and documents into a test service through its API, for tests about other pages. */
import type { TestServer } from '../../test/helpers/server.js';

export interface SeededTemplate {
  uuid: string;
  id: number;
  name: string;
}

export async function uploadTemplate(server: TestServer, name: string, bytes: Uint8Array): Promise<SeededTemplate> {
  const form = new FormData();
  form.set('file', new Blob([bytes]), name);
  const response = await server.api('/api/template', { method: 'POST', body: form });
  const body = (await response.json()) as { template?: SeededTemplate; message?: string };
  if (response.status !== 201 || !body.template) throw new Error(`upload of ${name} failed: ${response.status} ${JSON.stringify(body)}`);
  return body.template;
}

export async function createDocument(server: TestServer, uuid: string, data: Record<string, unknown>, test = false): Promise<number> {
  const response = await server.api('/api/document', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ template_id: uuid, data, test: test ? 1 : 0 }),
  });
  const body = (await response.json()) as { document?: { id: number } };
  if (response.status !== 201 || !body.document) throw new Error(`document failed: ${response.status} ${JSON.stringify(body)}`);
  return body.document.id;
}
