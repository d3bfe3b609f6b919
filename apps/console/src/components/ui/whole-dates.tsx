/** A calendar date as the API writes it (YYYY-MM-DD), captured so that `split` keeps it. */
const ISO_DATE = /(\d{4}-\d{2}-\d{2})/;

/**
 * `text` with each of its YYYY-MM-DD dates kept on one line: Chromium breaks a line after a date's hyphens,
 * which left "2015-01-" at the end of a phone's line and "01" on the next (annotations' date errors).
 * A span rather than non-breaking hyphens, which screen readers may name as characters.
 */
export function WholeDates({ text }: { text: string }) {
  return text.split(ISO_DATE).map((part, index) =>
    index % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered.
      <span key={index} className="whitespace-nowrap">
        {part}
      </span>
    ) : (
      part
    ),
  );
}
