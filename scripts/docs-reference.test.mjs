import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventFields, graphqlReference, restReference } from '../docs/.vitepress/reference.mjs';

const openapi = JSON.parse(readFileSync(new URL('../docs/openapi.json', import.meta.url), 'utf8'));
const sdl = readFileSync(new URL('../docs/graphql-schema.graphql', import.meta.url), 'utf8');

describe('the reference pages generated from the API definitions', () => {
  it("heads each event type's field table with the type's name, as the wire format's body schema allows it", () => {
    const page = eventFields(openapi);
    const variants =
      openapi.paths['/api/v1/events'].post.requestBody.content['text/plain'].schema.properties.events.items
        .oneOf;
    const headings = [...page.matchAll(/^### `(.+)`$/gm)].map((match) => match[1]);
    expect(headings).toEqual([
      'page_view',
      'wallet_detected',
      'wallet_connected',
      'wallet_disconnected',
      'chain_changed',
      'tx',
      'signature',
      'error',
      'custom',
      'identify',
    ]);
    expect(headings).toHaveLength(variants.length);
  });

  it('writes no missing value as "undefined" on any page', () => {
    for (const page of [eventFields(openapi), restReference(openapi), graphqlReference(sdl)]) {
      expect(page).not.toMatch(/\bundefined\b/);
    }
  });
});
