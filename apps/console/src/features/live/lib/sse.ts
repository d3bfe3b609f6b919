/** A text/event-stream message: its event name (default "message") and its data lines joined. */
export interface SseMessage {
  event: string;
  data: string;
}

/** What is left of the stream after the last complete message. */
export interface SseParser {
  buffer: string;
}

/**
 * The complete messages in `chunk` (with what an earlier chunk left), per the HTML spec's
 * event-stream format: messages end with a blank line, comment lines start with ':'.
 */
export function parseSseChunk(parser: SseParser, chunk: string): SseMessage[] {
  parser.buffer += chunk.replace(/\r\n?/g, '\n');
  const messages: SseMessage[] = [];
  let end = parser.buffer.indexOf('\n\n');
  while (end >= 0) {
    const block = parser.buffer.slice(0, end);
    parser.buffer = parser.buffer.slice(end + 2);
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) messages.push({ event, data: data.join('\n') });
    end = parser.buffer.indexOf('\n\n');
  }
  return messages;
}
