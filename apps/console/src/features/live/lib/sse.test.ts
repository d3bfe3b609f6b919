import { describe, expect, it } from 'vitest';
import { parseSseChunk, type SseParser } from './sse';

describe('parseSseChunk', () => {
  it('joins messages split across chunks, skips comments, reads event names', () => {
    const parser: SseParser = { buffer: '' };
    expect(parseSseChunk(parser, ': connected\n\nid: a\nevent: event\nda')).toEqual([]);
    expect(
      parseSseChunk(parser, 'ta: {"id":"a"}\n\n: keep-alive\n\nevent: closing\r\ndata: {}\r\n\r\n'),
    ).toEqual([
      { event: 'event', data: '{"id":"a"}' },
      { event: 'closing', data: '{}' },
    ]);
    expect(parser.buffer).toBe('');
    expect(parseSseChunk(parser, 'data: one\ndata: two\n\n')).toEqual([
      { event: 'message', data: 'one\ntwo' },
    ]);
  });
});
