import { Fragment } from 'react';

/**
 * Where a long identifier, domain or path may break across lines: after `_`, `-` and `/`, before `.`, and
 * between the words of camelCase ("swap|Exact|ETH|For|Tokens"). A phone then wraps "quote_|requested" or
 * "google|.com" at a seam rather than "quote_requeste|d" or "google.co|m" (what `overflow-wrap: anywhere`
 * and `word-break: break-all` did), and a short word never splits.
 */
const SEAMS = /(?<=[_\-/])(?=.)|(?<=.)(?=\.)|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;

const INLINE = { display: 'inline' } as const;

export function breakPoints(text: string): string[] {
  return text.split(SEAMS).filter((part) => part !== '');
}

/**
 * `text` with a `<wbr>` at each seam: the same characters for copying and for screen readers, and a line
 * break only where one is needed. Give its box `break-words` (overflow-wrap: break-word) so that a part
 * longer than a whole line still cannot overflow its card.
 */
export function Breakable({ text }: { text: string }) {
  const parts = breakPoints(text);
  return parts.map((part, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string, in order, never reordered
    <Fragment key={index}>
      {/* Inline, as browsers draw it: where no stylesheet says so (tests' DOMs), an accessible name computed
          over the parts would read the <wbr> as a space. */}
      {index > 0 && <wbr style={INLINE} />}
      {part}
    </Fragment>
  ));
}
