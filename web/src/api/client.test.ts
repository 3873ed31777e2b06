import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  NETWORK_ERROR_MESSAGE,
  TOKEN_STORAGE_KEY,
  api,
  apiRequest,
  clearStoredToken,
  getStoredToken,
  onUnauthorized,
  storeToken,
} from './client';

function memoryStorage(): Storage {
  const values = new Map<string, string>();
  return {
    get length() {
      return values.size;
    },
    clear: () => values.clear(),
    getItem: (key) => values.get(key) ?? null,
    key: (index) => [...values.keys()][index] ?? null,
    removeItem: (key) => {
      values.delete(key);
    },
    setItem: (key, value) => {
      values.set(key, String(value));
    },
  };
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

let fetchMock: ReturnType<typeof vi.fn>;
let local: Storage;
let perTab: Storage;

function sentHeaders(): Record<string, string> {
  const init = fetchMock.mock.calls[0]?.[1] as RequestInit;
  return init.headers as Record<string, string>;
}

beforeEach(() => {
  fetchMock = vi.fn();
  local = memoryStorage();
  perTab = memoryStorage();
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('localStorage', local);
  vi.stubGlobal('sessionStorage', perTab);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('token storage (decision 007)', () => {
  it('keeps an admin token in sessionStorage only, a user token in localStorage', () => {
    storeToken('user-tok');
    expect(local.getItem(TOKEN_STORAGE_KEY)).toBe('user-tok');
    storeToken('admin-tok', 'admin');
    expect(perTab.getItem(TOKEN_STORAGE_KEY)).toBe('admin-tok');
    // The earlier user's token is gone: one session per tab, and none left for the next visitor.
    expect(local.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(getStoredToken()).toBe('admin-tok');
    clearStoredToken();
    expect(getStoredToken()).toBeNull();
    expect(perTab.length + local.length).toBe(0);
  });
});

describe('api client', () => {
  it('sends the stored token as a bearer authorization header', async () => {
    local.setItem(TOKEN_STORAGE_KEY, 'tok-123');
    fetchMock.mockResolvedValue(jsonResponse(200, { user: { email: 'a@b.c' } }));

    await api.get('/api/auth/me');

    expect(fetchMock).toHaveBeenCalledWith('/api/auth/me', expect.objectContaining({ method: 'GET' }));
    expect(sentHeaders().Authorization).toBe('Bearer tok-123');
  });

  it('sends no authorization header when no token is stored', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, {}));

    await api.get('/api/zipcodes');

    expect(sentHeaders().Authorization).toBeUndefined();
  });

  it('sends a body as JSON with a JSON content type', async () => {
    fetchMock.mockResolvedValue(jsonResponse(201, { message: 'ok' }));

    await api.post('/api/auth/register', { email: 'a@b.c', password: 'secret123' });

    const init = fetchMock.mock.calls[0]?.[1] as RequestInit;
    expect(init.method).toBe('POST');
    expect(init.body).toBe(JSON.stringify({ email: 'a@b.c', password: 'secret123' }));
    expect(sentHeaders()['Content-Type']).toBe('application/json');
  });

  it('does not claim a JSON content type for a request without a body', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));

    const result = await api.post('/api/auth/logout');

    expect(sentHeaders()['Content-Type']).toBeUndefined();
    expect(result).toEqual({ ok: true, status: 204, data: undefined });
  });

  it('returns the parsed body of a successful answer', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { token: 't', user: { email: 'a@b.c' } }));

    const result = await api.post<{ token: string }>('/api/auth/login', { email: 'a@b.c', password: 'x' });

    expect(result).toEqual({ ok: true, status: 200, data: { token: 't', user: { email: 'a@b.c' } } });
  });

  it('when the server answers with an error text, the failure carries that text, status and code', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(403, { error: 'Please verify your email before signing in', code: 'EMAIL_NOT_VERIFIED' }),
    );

    const result = await api.post('/api/auth/login', {}, { fallbackError: 'Login failed' });

    expect(result).toEqual({
      ok: false,
      status: 403,
      error: 'Please verify your email before signing in',
      code: 'EMAIL_NOT_VERIFIED',
      networkError: false,
    });
  });

  it('when the server answers without an error text, the failure carries the caller fallback', async () => {
    fetchMock.mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 }));

    const result = await api.post('/api/auth/register', {}, { fallbackError: 'Registration failed' });

    expect(result).toMatchObject({ ok: false, status: 502, error: 'Registration failed', networkError: false });
  });

  it('when the error field is blank, the failure carries the caller fallback', async () => {
    fetchMock.mockResolvedValue(jsonResponse(500, { error: '' }));

    const result = await apiRequest('/api/contact', { method: 'POST', body: {}, fallbackError: 'Failed to send' });

    expect(result).toMatchObject({ ok: false, error: 'Failed to send' });
  });

  it('when fetch throws, the failure is the network error message with status 0', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));

    const result = await api.post('/api/auth/login', {}, { fallbackError: 'Login failed' });

    expect(result).toEqual({ ok: false, status: 0, error: NETWORK_ERROR_MESSAGE, networkError: true });
    expect(NETWORK_ERROR_MESSAGE).toBe('Network error. Please try again.');
  });

  it('an explicit null token sends no authorization header even when one is stored', async () => {
    local.setItem(TOKEN_STORAGE_KEY, 'tok-123');
    fetchMock.mockResolvedValue(jsonResponse(200, {}));

    await api.get('/api/requests/covered', { token: null });

    expect(sentHeaders().Authorization).toBeUndefined();
  });

  it('clearing the stored token removes it from local storage', () => {
    local.setItem(TOKEN_STORAGE_KEY, 'tok-123');

    clearStoredToken();

    expect(getStoredToken()).toBeNull();
  });
});

describe('a session the server ended', () => {
  it('a 401 for the stored token tells the session; a 401 for another token or none does not', async () => {
    const heard: string[] = [];
    const stop = onUnauthorized(() => heard.push('401'));
    try {
      fetchMock.mockResolvedValue(jsonResponse(401, { error: 'Please sign in to continue.' }));
      await api.post('/api/auth/login', { email: 'a@example.test', password: 'x' }, { token: null });
      local.setItem(TOKEN_STORAGE_KEY, 'current');
      await api.get('/api/auth/me', { token: 'an-older-one' });
      expect(heard).toEqual([]);
      await api.get('/api/users/stats');
      expect(heard).toEqual(['401']);
    } finally {
      stop();
    }
  });

  it('a 401 WRONG_PASSWORD (a password typed on a signed-in page) does not end the session', async () => {
    const heard: string[] = [];
    const stop = onUnauthorized(() => heard.push('401'));
    try {
      local.setItem(TOKEN_STORAGE_KEY, 'current');
      fetchMock.mockResolvedValue(
        jsonResponse(401, { error: 'Your current password is incorrect.', code: 'WRONG_PASSWORD' }),
      );
      const result = await api.post('/api/auth/change-password', { current_password: 'x', new_password: 'y' });
      expect(result).toMatchObject({ ok: false, status: 401, code: 'WRONG_PASSWORD' });
      expect(heard).toEqual([]);
      expect(getStoredToken()).toBe('current');
    } finally {
      stop();
    }
  });

  it('passes on the fields the server named, so a form can mark them', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(400, { error: 'Please enter a valid email address.', details: [{ field: 'email', message: 'x' }] }),
    );
    const result = await api.post('/api/auth/register', { email: 'a@b', password: 'long enough' });
    expect(result).toMatchObject({ ok: false, status: 400, fields: ['email'] });
  });

  it('shows a validation refusal as sentences about its fields, never the validator text', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(400, {
        error: 'address: must NOT have more than 300 characters',
        code: 'VALIDATION',
        details: [
          { field: 'address', message: 'must NOT have more than 300 characters' },
          { field: 'url', message: 'must match pattern "^\\s*([Hh][Tt][Tt][Pp][Ss]?://\\S+)?\\s*$"' },
        ],
      }),
    );
    const result = await api.post('/api/requests', { address: 'x'.repeat(301), url: 'ftp://x' });
    expect(result).toMatchObject({
      ok: false,
      fields: ['address', 'url'],
      error:
        'The property address can be at most 300 characters. Enter a web address that starts with http:// or https://.',
      fieldMessages: {
        address: 'The property address can be at most 300 characters.',
        url: 'Enter a web address that starts with http:// or https://.',
      },
    });
  });
});
