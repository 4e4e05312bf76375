/**
 * PAYMENTS=off: a school that settles money outside Tutorlane. Lessons are booked without a
 * balance and hold nothing; wallets say payments are off and take no top-up.
 */
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { get, send } from '../support/accounts';
import { person, setUpApiTest, t } from '../support/api-app';
import { openAvailability } from '../support/lessons';
import { makeAdmin, publishTutor, walletOf } from '../support/money';

setUpApiTest({ env: { PAYMENTS: 'off' } });

describe('with payments off', () => {
  it('books without a balance, holds nothing, and takes no top-up', async () => {
    const teacher = await publishTutor(t, await person('tutor'));
    const student = await person('student');
    // 10:00 three days ahead in the tutor's zone: inside their hours whatever the time of day now.
    const zone = openAvailability.timeZone;
    const start = Temporal.Now.plainDateISO(zone)
      .add({ days: 3 })
      .toZonedDateTime({ timeZone: zone, plainTime: Temporal.PlainTime.from('10:00') })
      .toInstant();
    const booked = await send(
      t,
      'POST',
      '/api/lessons',
      { tutorId: teacher.id, start: start.toString(), minutes: 60, subject: 'Algebra' },
      student.jar,
    );
    expect(booked.status, await booked.clone().text()).toBe(201);
    expect((await booked.json()).payment).toEqual({ status: 'none', amountCents: 4000, currency: 'USD' });
    expect(await walletOf(t, student)).toMatchObject({
      payments: 'off',
      balance: { amountCents: 0 },
      held: { amountCents: 0 },
      transactions: [],
    });
    const topUp = await send(
      t,
      'POST',
      '/api/wallet/top-ups',
      { amountCents: 1000, method: 'manual' },
      student.jar,
    );
    expect(topUp.status).toBe(409);
    expect((await topUp.json()).code).toBe('PAYMENTS_OFF');
    expect((await (await get(t, '/api/config')).json()).payments).toMatchObject({ on: false, stripe: false });
    const admin = await makeAdmin(t, await person('student'));
    expect(await (await get(t, '/api/admin/finance', admin.jar)).json()).toMatchObject({ payments: 'off' });
  });
});
