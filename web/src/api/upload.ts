import { type ApiResult, NETWORK_ERROR_MESSAGE, failureOf, getStoredToken } from './client';

/** How far an upload has gone: bytes sent of the total (the file's size). */
export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadOptions {
  /** The body's type, e.g. application/json for a ZIP import. */
  contentType: string;
  /** Shown when a non-OK answer carries no `error` text of its own. */
  fallbackError: string;
  /** Shown when the upload never got an answer. */
  networkError?: string;
  /** Called as the bytes go out; fetch cannot report this, XMLHttpRequest's upload events can. */
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * POST a file as it is (no multipart, no reading it into memory first) with the stored token,
 * reporting upload progress. Answers like `apiRequest`: `{ error }` bodies become messages, a
 * 401 on the stored token signs out, and a request that got no answer is a network error.
 */
export function uploadWithProgress<T>(path: string, body: Blob, options: UploadOptions): Promise<ApiResult<T>> {
  const token = getStoredToken();
  const networkFailure: ApiResult<T> = {
    ok: false,
    status: 0,
    error: options.networkError ?? NETWORK_ERROR_MESSAGE,
    networkError: true,
  };
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', options.contentType);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.addEventListener('progress', (event) => {
      options.onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : body.size });
    });
    xhr.addEventListener('load', () => {
      const data = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve({ ok: true, status: xhr.status, data: data as T });
      else resolve(failureOf(xhr.status, data, token, options.fallbackError));
    });
    xhr.addEventListener('error', () => resolve(networkFailure));
    xhr.addEventListener('timeout', () => resolve(networkFailure));
    xhr.addEventListener('abort', () => resolve({ ...networkFailure, error: 'The upload was cancelled.' }));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}
