import { ConfigError } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import { loadLeadsConfig, metaEnabled } from './config.js';

const base = { INTERNAL_SECRET: 'x'.repeat(32) };

describe('the leads settings for Meta Lead Ads', () => {
  it('leave Meta off by default, with the Graph API v21.0 as its base', () => {
    const config = loadLeadsConfig(base);
    expect(metaEnabled(config)).toBe(false);
    expect(config.META_GRAPH_URL).toBe('https://graph.facebook.com/v21.0');
    expect(config.META_WEBHOOK_KEY_NAME).toBe('Meta Lead Ads');
  });

  it('turn Meta on with the app secret, the verify token and the page token', () => {
    const config = loadLeadsConfig({
      ...base,
      META_APP_SECRET: 'secret',
      META_VERIFY_TOKEN: 'verify',
      META_PAGE_ACCESS_TOKEN: 'page',
      META_WEBHOOK_KEY_NAME: '  Facebook  ',
    });
    expect(metaEnabled(config)).toBe(true);
    expect(config.META_WEBHOOK_KEY_NAME).toBe('Facebook');
  });

  it('refuse to start with the app secret but no verify or page token, naming both', () => {
    expect(() => loadLeadsConfig({ ...base, META_APP_SECRET: 'secret' })).toThrow(ConfigError);
    expect(() => loadLeadsConfig({ ...base, META_APP_SECRET: 'secret' })).toThrow(
      /META_VERIFY_TOKEN: must be set when META_APP_SECRET is set[\s\S]*META_PAGE_ACCESS_TOKEN/,
    );
  });

  it('refuse a Graph URL that is not http(s), and a deadline out of range', () => {
    expect(() => loadLeadsConfig({ ...base, META_GRAPH_URL: 'graph.facebook.com/v21.0' })).toThrow(/META_GRAPH_URL/);
    expect(() => loadLeadsConfig({ ...base, META_GRAPH_TIMEOUT_MS: '50' })).toThrow(/META_GRAPH_TIMEOUT_MS/);
  });
});
