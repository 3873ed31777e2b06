import { describe, expect, it } from 'vitest';
import { DEFAULT_SUPPORT_EMAIL } from '../src/config/site';
import { supportEmailDefine, supportEmailFromEnv } from './supportEmail';

describe('the support address of the web build', () => {
  it('is SUPPORT_EMAIL, the notifications service setting, when no VITE_SUPPORT_EMAIL is set', () => {
    expect(supportEmailFromEnv({ SUPPORT_EMAIL: 'help@acme.test' })).toBe('help@acme.test');
    expect(supportEmailDefine({ SUPPORT_EMAIL: ' help@acme.test ' })).toEqual({
      'import.meta.env.VITE_SUPPORT_EMAIL': '"help@acme.test"',
    });
  });

  it('is VITE_SUPPORT_EMAIL when a build sets it; blank values count as unset', () => {
    expect(supportEmailFromEnv({ VITE_SUPPORT_EMAIL: 'web@acme.test', SUPPORT_EMAIL: 'help@acme.test' })).toBe(
      'web@acme.test',
    );
    expect(supportEmailFromEnv({ VITE_SUPPORT_EMAIL: '  ', SUPPORT_EMAIL: 'help@acme.test' })).toBe('help@acme.test');
  });

  it('leaves the default to the app when neither is set', () => {
    expect(supportEmailFromEnv({})).toBeUndefined();
    expect(supportEmailDefine({ SUPPORT_EMAIL: '' })).toEqual({});
  });

  it('defaults to the same address as the notifications service, so pages and emails agree', async () => {
    // A path in a variable: the service's config is checked by the root tsconfig, not the web one.
    const serviceConfig = '../../services/notifications/src/config.ts';
    const { NotificationsConfig } = (await import(/* @vite-ignore */ serviceConfig)) as {
      NotificationsConfig: { properties: { SUPPORT_EMAIL: { default: string } } };
    };
    expect(NotificationsConfig.properties.SUPPORT_EMAIL.default).toBe(DEFAULT_SUPPORT_EMAIL);
  });
});
