// A person removes one of their own devices (an old browser) from another of theirs: POST /api/remove-device with the
// asking device's session. Only a device of the same user may do it; the blocks the removed device sent stay, its
// session ends, and a join under its id is refused, so it comes back only as a new device that proves itself again.
import { describe, expect, it } from 'vitest';
import { MICHAEL, uploadOf } from '../support/ledger-fixtures';
import { encodeBlocks, identityOf } from './support/devices';
import { seededServer } from './support/seeded';

async function post(port: number, path: string, body: unknown, session?: string) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(session ? { Authorization: `Bearer ${session}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('removing a device', () => {
  it("removes the user's other device: its place and session go, its blocks stay, and its id cannot join again", async () => {
    const { server, ledger, blocks, laptop, device } = await seededServer(1);
    const phone = await device('phone', blocks, { quiet: true }); // its socket is refused once it is removed
    expect(await phone.join()).toMatchObject({ ok: true });
    await ledger.service.upload(uploadOf('Written on the phone'));
    const written = await ledger.blocks();
    phone.handle.change((doc) => Object.assign(doc.blocks, encodeBlocks(written.slice(blocks.length))));
    const shared = await laptop.ledger();
    await expect.poll(() => Object.keys(shared.doc().devices).sort()).toEqual([laptop.deviceId, phone.deviceId].sort());
    await expect.poll(async () => (await server.info()).height).toBe(written.length);

    const removal = await post(server.port, '/api/remove-device', { deviceId: phone.deviceId }, laptop.session());
    expect(removal).toEqual({ status: 200, body: { ok: true } });

    await expect.poll(() => Object.keys(shared.doc().devices)).toEqual([laptop.deviceId]);
    expect((await server.info()).height).toBe(written.length); // nothing the phone sent is dropped
    expect(Object.keys(shared.doc().blocks).sort()).toEqual(written.map((block) => block.hash).sort());
    // its session ended: the phone must prove itself again, and its old id is refused
    expect((await post(server.port, '/api/device', { deviceUrl: phone.handle.url }, phone.session())).status).toBe(401);
    expect(await phone.join()).toEqual({
      ok: false,
      reason: expect.stringMatching(/this device was removed from the sync server .* connect again to join as a new device/),
      removed: true,
    });
    // the same browser joins again under a new id, proving the user's key like any new device
    const again = await device('phone', written);
    expect(await again.join()).toMatchObject({ ok: true });
    await expect.poll(() => shared.doc().devices[again.deviceId]?.name).toBe('phone');
    expect(server.lines.some((line) => line.includes(`device ${phone.deviceId} (phone) of user`))).toBe(true);
    // removed once: asking again says so
    expect((await post(server.port, '/api/remove-device', { deviceId: phone.deviceId }, laptop.session())).body).toEqual({
      ok: false,
      reason: `device ${phone.deviceId} was removed already`,
    });
  });

  it("refuses another user's device, a device it does not know, and keeps the device serving", async () => {
    const { server, ledger, blocks, laptop, device } = await seededServer(1);
    const michael = await device('michael-pc', blocks.slice(0, 1), { as: await identityOf(ledger.keys.users, MICHAEL.id) });
    expect(await michael.join()).toMatchObject({ ok: true });
    const shared = await michael.ledger();
    await expect.poll(() => Object.keys(shared.doc().devices).length).toBe(2);
    expect(shared.doc().devices[laptop.deviceId]?.userId).toBe(ledger.sarah.userId); // the server names each device's user

    expect((await post(server.port, '/api/remove-device', { deviceId: laptop.deviceId }, michael.session())).body).toEqual({
      ok: false,
      reason: `device ${laptop.deviceId} belongs to another user: a device removes only devices of its own user`,
    });
    expect((await post(server.port, '/api/remove-device', { deviceId: 'no-such-device' }, michael.session())).body).toEqual({
      ok: false,
      reason: 'this server knows no device no-such-device',
    });
    // Sarah's laptop is still there and its session still holds
    expect(Object.keys(shared.doc().devices)).toContain(laptop.deviceId);
    expect(await post(server.port, '/api/device', { deviceUrl: laptop.handle.url }, laptop.session())).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(server.lines.some((line) => line.includes(`removal of device ${laptop.deviceId} refused`))).toBe(true);
  });

  it('refuses a client that proved nothing, and bad input with the reason', async () => {
    const { server, laptop } = await seededServer(0);
    const asked = { deviceId: laptop.deviceId };
    for (const session of [undefined, 'made-up-session']) {
      expect(await post(server.port, '/api/remove-device', asked, session)).toEqual({
        status: 401,
        body: { ok: false, reason: 'this device has not proved who it is: join again' },
      });
    }
    expect(await post(server.port, '/api/remove-device', 'not json', laptop.session())).toEqual({
      status: 400,
      body: { ok: false, reason: 'the request is not JSON' },
    });
    for (const body of [{}, { deviceId: '' }, { deviceId: 7 }, { deviceId: 'x'.repeat(201) }, []]) {
      const answer = await post(server.port, '/api/remove-device', body, laptop.session());
      expect(answer.status).toBe(400);
      expect(answer.body.reason).toMatch(
        /^(deviceId is missing or longer than 200 characters|the request is not a JSON object)$/,
      );
    }
    // the laptop is still the server's device
    expect((await post(server.port, '/api/device', { deviceUrl: laptop.handle.url }, laptop.session())).status).toBe(200);
  });
});
