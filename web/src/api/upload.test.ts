import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_STORAGE_KEY, onUnauthorized } from './client';
import { type UploadProgress, uploadWithProgress } from './upload';

type Listener = (event: { loaded: number; total: number; lengthComputable: boolean }) => void;

/** Enough of XMLHttpRequest to drive an upload by hand: progress, then an answer or a failure. */
class FakeXhr {
  static last: FakeXhr | undefined;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  sent: unknown;
  status = 0;
  responseText = '';
  aborted = false;
  private listeners = new Map<string, Listener[]>();
  readonly upload = {
    listeners: [] as Listener[],
    addEventListener: (_type: 'progress', listener: Listener) => this.upload.listeners.push(listener),
  };

  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  send(body: unknown) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
    this.fire('abort');
  }
  progress(loaded: number, total: number, lengthComputable = true) {
    for (const listener of this.upload.listeners) listener({ loaded, total, lengthComputable });
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.fire('load');
  }
  fire(type: string) {
    for (const listener of this.listeners.get(type) ?? []) listener({ loaded: 0, total: 0, lengthComputable: false });
  }
}

const store = new Map<string, string>();
beforeEach(() => {
  store.clear();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => store.set(key, value),
    removeItem: (key: string) => store.delete(key),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  FakeXhr.last = undefined;
});

const file = new Blob(['[{"zipCode":"02116"}]'], { type: 'application/json' });
const options = { contentType: 'application/json', fallbackError: 'Import failed' };

function xhr(): FakeXhr {
  if (!FakeXhr.last) throw new Error('no request was made');
  return FakeXhr.last;
}

describe('uploadWithProgress', () => {
  it('sends the file itself with its type and the stored token, and reports the bytes as they go', async () => {
    store.set(TOKEN_STORAGE_KEY, 'tok');
    const seen: UploadProgress[] = [];
    const pending = uploadWithProgress<{ imported: string[] }>('/api/admin/zipcodes/import', file, {
      ...options,
      onProgress: (p) => seen.push(p),
    });
    const request = xhr();
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/admin/zipcodes/import');
    expect(request.sent).toBe(file);
    expect(request.headers).toMatchObject({ 'Content-Type': 'application/json', Authorization: 'Bearer tok' });

    request.progress(10, 22);
    request.progress(22, 22);
    // A browser that cannot tell the total: the file's size is the total.
    request.progress(5, 0, false);
    request.answer(200, { imported: ['02116'] });
    await expect(pending).resolves.toEqual({ ok: true, status: 200, data: { imported: ['02116'] } });
    expect(seen).toEqual([
      { loaded: 10, total: 22 },
      { loaded: 22, total: 22 },
      { loaded: 5, total: file.size },
    ]);
  });

  it("turns a refusal into the server's words, or the fallback when it gave none", async () => {
    const tooLarge = uploadWithProgress('/x', file, options);
    xhr().answer(413, { error: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' });
    await expect(tooLarge).resolves.toMatchObject({
      ok: false,
      status: 413,
      error: 'Request body is too large',
      code: 'PAYLOAD_TOO_LARGE',
      networkError: false,
    });
    const bare = uploadWithProgress('/x', file, options);
    xhr().answer(502, '<html>bad gateway</html>');
    await expect(bare).resolves.toMatchObject({ ok: false, status: 502, error: 'Import failed' });
  });

  it('is a network error when no answer came, and says so when cancelled', async () => {
    const lost = uploadWithProgress('/x', file, { ...options, networkError: 'The upload was interrupted.' });
    xhr().fire('error');
    await expect(lost).resolves.toMatchObject({ ok: false, status: 0, networkError: true });
    await expect(lost).resolves.toMatchObject({ error: 'The upload was interrupted.' });

    const controller = new AbortController();
    const cancelled = uploadWithProgress('/x', file, { ...options, signal: controller.signal });
    controller.abort();
    expect(xhr().aborted).toBe(true);
    await expect(cancelled).resolves.toMatchObject({ ok: false, error: 'The upload was cancelled.' });
  });

  it('signs out when the stored token is refused', async () => {
    store.set(TOKEN_STORAGE_KEY, 'expired');
    const signedOut = vi.fn();
    const unsubscribe = onUnauthorized(signedOut);
    const pending = uploadWithProgress('/x', file, options);
    xhr().answer(401, { error: 'Session expired' });
    await pending;
    unsubscribe();
    expect(signedOut).toHaveBeenCalledTimes(1);
  });
});
