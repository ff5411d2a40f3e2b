import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.ts';

function load(file: unknown) {
  return loadConfig({
    env: { TOCSIN_CONFIG: '/virtual/tocsin.json' },
    readFile: () => JSON.stringify(file),
    isTty: false,
  });
}

function errorOf(file: unknown): ConfigError {
  try {
    load(file);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('config: intelligence', () => {
  it('is on by default', () => {
    expect(loadConfig({ env: {}, isTty: false }).intelligence).toEqual({ enabled: true });
    expect(load({}).intelligence).toEqual({ enabled: true });
  });

  it('reads enabled', () => {
    expect(load({ intelligence: { enabled: false } }).intelligence).toEqual({ enabled: false });
    expect(load({ intelligence: { enabled: true } }).intelligence).toEqual({ enabled: true });
  });

  it('rejects a non-boolean, an unknown key and a non-object', () => {
    expect(errorOf({ intelligence: { enabled: 'no' } }).message).toContain('intelligence.enabled');
    expect(errorOf({ intelligence: { enable: false } }).message).toContain('intelligence.enable');
    expect(errorOf({ intelligence: true }).message).toContain('intelligence');
  });
});
