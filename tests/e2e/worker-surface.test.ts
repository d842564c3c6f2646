// The built app's ledger worker answers only calls of its own methods: spoken to in comlink's wire format from
// the page, as any script of the origin could, it refuses everything else and runs nothing of it.
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { DEMO_ACCOUNTS } from '../../workers/core/directory';
import { describe, expect, test } from './support/fixtures';
import { login } from './support/session';

describe('the ledger worker of the built app', () => {
  test('refuses constructor.constructor, GET, SET on __proto__ and CONSTRUCT, and still answers its methods', async ({
    page,
  }) => {
    await login(page, 'patient');
    const workerUrl = page
      .workers()
      .find((worker) => /ledger\.worker/.test(worker.url()))
      ?.url();
    if (!workerUrl) throw new Error('the app did not start its ledger worker');

    const replies = await page.evaluate(
      async ({ workerUrl, email, password }) => {
        const worker = new Worker(workerUrl, { type: 'module' });
        const pending = new Map<string, (data: unknown) => void>();
        worker.addEventListener('message', (event) => pending.get(event.data?.id)?.(event.data));
        const send = (id: string, message: Record<string, unknown>) =>
          new Promise<unknown>((resolve) => {
            pending.set(id, resolve);
            worker.postMessage({ id, ...message });
          });
        const raw = (value: unknown) => ({ type: 'RAW', value });
        const results = {
          code: await send('code', {
            type: 'APPLY',
            path: ['ledger', 'constructor', 'constructor'],
            argumentList: [raw('return 1')],
          }),
          get: await send('get', { type: 'GET', path: ['ledger', 'signIn', 'name'] }),
          set: await send('set', { type: 'SET', path: ['ledger', '__proto__', 'polluted'], value: raw('yes') }),
          construct: await send('construct', { type: 'CONSTRUCT', path: ['ledger', 'signIn'], argumentList: [] }),
          signIn: await send('signIn', {
            type: 'APPLY',
            path: ['ledger', 'signIn'],
            argumentList: [raw(email), raw(password), raw('patient')],
          }),
          polluted: await send('polluted', { type: 'APPLY', path: ['ledger', 'chainStatus'], argumentList: [] }),
        };
        worker.terminate();
        return results;
      },
      { workerUrl, email: DEMO_ACCOUNTS.patient, password: DEMO_PASSWORD },
    );

    const refused = {
      type: 'HANDLER',
      name: 'throw',
      value: {
        isError: true,
        value: { name: 'AccessDeniedError', message: 'The records service answers only calls of its own methods.' },
      },
    };
    for (const name of ['code', 'get', 'set', 'construct'] as const) expect(replies[name], name).toMatchObject(refused);
    expect(replies.signIn).toMatchObject({ type: 'RAW', value: { email: DEMO_ACCOUNTS.patient, role: 'patient' } });
    expect(replies.polluted).toMatchObject({ type: 'RAW', value: { valid: true } });
    expect(JSON.stringify(replies.polluted)).not.toContain('yes');
  });
});
