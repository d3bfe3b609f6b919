const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;
/** Made on first use: the server makes no Intl formatter while it starts (test/startup-footprint.test.ts). */
let oneDecimalFormat: Intl.NumberFormat | undefined;
const oneDecimal = () => {
  oneDecimalFormat ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
  return oneDecimalFormat;
};

/**
 * "87 B", "340 KB", "1.2 GB": a size in binary units, one definition for the server's refusals (a source-map
 * upload past a limit) and the console's cards, so the two say the same size the same way.
 */
export function formatBytes(bytes: number): string {
  if (bytes >= GB) return `${oneDecimal().format(bytes / GB)} GB`;
  if (bytes >= MB) return `${oneDecimal().format(bytes / MB)} MB`;
  if (bytes >= KB) return `${oneDecimal().format(bytes / KB)} KB`;
  return `${bytes} B`;
}
