/**
 * Hands a file to the browser as a download. For files the API gives only with the bearer token,
 * which a plain link cannot send: they are fetched first, then saved from memory.
 */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The browser may read the address after the click returns; it goes a while later.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
