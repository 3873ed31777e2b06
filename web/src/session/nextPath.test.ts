import { describe, expect, it } from 'vitest';
import { afterSignIn, safeNext, signInPathFor } from './nextPath';

describe('safeNext', () => {
  it('keeps a path on this site with its query', () => {
    expect(safeNext('/report/abc123')).toBe('/report/abc123');
    expect(safeNext('/admin/request/42?tab=files')).toBe('/admin/request/42?tab=files');
    expect(safeNext('/dashboard')).toBe('/dashboard');
  });

  it('refuses another origin in every spelling a browser follows', () => {
    for (const next of [
      '//evil.example',
      '//evil.example/report/1',
      '/\\evil.example',
      '\\\\evil.example',
      'https://evil.example',
      'http://evil.example/report/1',
      'javascript:alert(1)',
      'evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      ' /report/1',
      '/report\\..\\..\\evil',
    ]) {
      expect(safeNext(next), next).toBeNull();
    }
  });

  it('refuses nothing, blank and absurdly long values', () => {
    expect(safeNext(null)).toBeNull();
    expect(safeNext(undefined)).toBeNull();
    expect(safeNext('')).toBeNull();
    expect(safeNext(`/${'a'.repeat(5000)}`)).toBeNull();
  });
});

describe('signInPathFor', () => {
  it('carries the page and its query to the sign-in page', () => {
    const path = signInPathFor('/login', '/report/abc?x=1');
    expect(path.startsWith('/login?')).toBe(true);
    expect(new URLSearchParams(path.slice('/login'.length)).get('next')).toBe('/report/abc?x=1');
  });

  it('adds nothing for the home page or an unsafe path', () => {
    expect(signInPathFor('/admin-login', '/')).toBe('/admin-login');
    expect(signInPathFor('/login', '//evil.example')).toBe('/login');
  });
});

describe('afterSignIn', () => {
  it('goes to a safe next, else home', () => {
    expect(afterSignIn('/report/abc', '/dashboard')).toBe('/report/abc');
    expect(afterSignIn('//evil.example', '/dashboard')).toBe('/dashboard');
    expect(afterSignIn('https://evil.example', '/dashboard')).toBe('/dashboard');
    expect(afterSignIn(null, '/admin')).toBe('/admin');
  });
});
