/** Hands the browser a file made in the page (a blob URL and an `<a download>`: no server round trip). */
export function saveFile(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own reference by now; a later revoke keeps slow browsers safe.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
