// The app's Content-Security-Policy follows SYNC_HOST and SYNC_ORIGINS: the policy index.html carries, as the build
// writes it into the page and the preview server sends it (vite.config.ts, serve-build.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { originRefusal, pageHostsOf, pageOriginsOf, withSyncConnectSources } from '../../server/sync-origins';

const root = join(import.meta.dirname, '../..');
const policy = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(
  readFileSync(join(root, 'index.html'), 'utf8'),
)![1];
const connectSrc = (text: string) => /connect-src ([^;]*)/.exec(text)![1].split(' ');

describe('the sync server settings', () => {
  it('leave the policy as it is when nothing is set: this machine only', () => {
    expect(withSyncConnectSources(policy, {})).toBe(policy);
    expect(connectSrc(policy)).toEqual(expect.arrayContaining(['ws://127.0.0.1:*', 'ws://localhost:*']));
  });

  it('let the app reach the sync server on the hosts SYNC_ORIGINS serves it from, wss:// beside https://', () => {
    const sources = connectSrc(
      withSyncConnectSources(policy, { SYNC_ORIGINS: 'https://192.168.1.20:8443,http://lab.example:8080' }),
    );
    expect(sources).toEqual(
      expect.arrayContaining(['wss://192.168.1.20:*', 'https://192.168.1.20:*', 'ws://lab.example:*', 'http://lab.example:*']),
    );
    expect(sources).not.toContain('ws://192.168.1.20:*'); // a secure page's socket is wss://
    expect(sources).toEqual(expect.arrayContaining(connectSrc(policy))); // nothing taken away
  });

  it('add SYNC_HOST when it is not this machine, and nothing else changes in the policy', () => {
    const changed = withSyncConnectSources(policy, { SYNC_HOST: '192.168.1.20' });
    expect(connectSrc(changed)).toEqual(expect.arrayContaining(['ws://192.168.1.20:*', 'http://192.168.1.20:*']));
    expect(changed.replace(/connect-src [^;]*/, '')).toBe(policy.replace(/connect-src [^;]*/, ''));
    expect(withSyncConnectSources(policy, { SYNC_HOST: 'localhost' })).toBe(policy);
  });

  it('refuse an entry that is not an origin, and allow only loopback pages and the named origins', () => {
    expect(() => pageOriginsOf('https://192.168.1.20:8443/')).toThrow(/is not an origin/);
    expect(() => pageOriginsOf('ftp://files.example')).toThrow(/is not an origin/);
    const origins = pageOriginsOf(' https://192.168.1.20:8443 , https://medledger.example ');
    expect(origins).toEqual(['https://192.168.1.20:8443', 'https://medledger.example']);
    expect(pageHostsOf(origins.join(','))).toEqual(['192.168.1.20', 'medledger.example']);
    expect(originRefusal('http://127.0.0.1:4173', [])).toBeNull();
    expect(originRefusal('https://medledger.example', origins)).toBeNull();
    expect(originRefusal('https://medledger.example.evil', origins)).toMatch(
      /^refused a page from https:\/\/medledger.example.evil/,
    );
    expect(originRefusal('http://192.168.1.20:8443', origins)).toMatch(/^refused a page from/);
  });
});
