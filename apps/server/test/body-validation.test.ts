import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseBody } from '../src/http/validation.ts';

const Rule = z.strictObject({ name: z.string(), params: z.strictObject({ hours: z.number() }) });

function detailsOf(body: unknown) {
  try {
    parseBody(Rule, body);
  } catch (error) {
    return (error as { details?: unknown }).details;
  }
  throw new Error('accepted');
}

describe('a refused request body', () => {
  it('names an unknown key under its object, as the other fields are named', () => {
    expect(detailsOf({ name: 'r', params: { hours: 1, foo: 1 } })).toEqual([
      { path: 'params.foo', message: expect.any(String) },
    ]);
    expect(detailsOf({ name: 'r', params: { hours: 1 }, a: 1, b: 2 })).toEqual([
      { path: 'a,b', message: expect.any(String) },
    ]);
    expect(detailsOf({ name: 'r', params: { hours: 'x' } })).toEqual([
      { path: 'params.hours', message: expect.any(String) },
    ]);
  });
});
