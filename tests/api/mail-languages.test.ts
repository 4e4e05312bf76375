/**
 * Mails in their recipient's language: the one they saved (at sign-up or on their profile), else
 * the school's default; never the sender's. A Spanish student booking a German tutor mails the
 * tutor in German and the student in Spanish.
 */
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/server/admin/admin-command';
import type { Database } from '../../src/server/db/database';
import {
  get,
  send,
  signIn,
  solveCaptcha,
  TEST_PASSWORD,
  uniqueEmail,
  verificationToken,
} from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { openAvailability } from '../support/lessons';
import type { CaughtMail } from '../support/mail-catcher';

setUpApiTest();

/** Signs up with a language chosen on the sign-up page, and verifies through the mailed link. */
async function signUpIn(language: 'es' | 'de' | undefined, role: 'student' | 'tutor', name: string) {
  const email = uniqueEmail(language ?? 'none');
  const res = await t.request('/api/auth/sign-up/email', {
    method: 'POST',
    headers: { 'x-captcha': await solveCaptcha(t) },
    body: JSON.stringify({
      name,
      email,
      password: TEST_PASSWORD,
      confirmPassword: TEST_PASSWORD,
      role,
      language,
    }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const mail = await mailbox.waitFor((m) => m.to === email);
  const jar = (await signIn(t, email)).jar;
  const verified = await send(
    t,
    'POST',
    '/api/account/verify-email',
    { token: verificationToken(mail) },
    jar,
  );
  expect(verified.status).toBe(200);
  jar.store(verified);
  const id = (await (await get(t, '/api/session', jar)).json()).user.id as string;
  return { person: { jar, id, email, name } as Person, verification: mail };
}

async function publishTutor(who: Person) {
  const details = await send(
    t,
    'PATCH',
    '/api/profile/details',
    {
      headline: 'Algebra made calm',
      about: 'Step by step, at your pace.',
      subjects: ['Algebra'],
      hourlyRate: 40,
      languages: ['English'],
    },
    who.jar,
  );
  expect(details.status, await details.clone().text()).toBe(200);
  const availability = await send(t, 'PUT', '/api/availability', openAvailability, who.jar);
  expect(availability.status, await availability.clone().text()).toBe(200);
}

/** Books an hour of Algebra at 10:00 Madrid time, `days` from today; confirmed at once. */
async function book(student: Person, tutor: Person, days: number) {
  const start = Temporal.Now.zonedDateTimeISO('Europe/Madrid')
    .toPlainDate()
    .add({ days })
    .toZonedDateTime({
      timeZone: 'Europe/Madrid',
      plainTime: Temporal.PlainTime.from('10:00'),
    }).epochMilliseconds;
  const res = await send(
    t,
    'POST',
    '/api/lessons',
    { tutorId: tutor.id, subject: 'Algebra', minutes: 60, start: new Date(start).toISOString() },
    student.jar,
  );
  expect(res.status, await res.clone().text()).toBe(201);
}

const mailAbout = (to: string, subjectPart: string): Promise<CaughtMail> =>
  mailbox.waitFor((mail) => mail.to === to && mail.subject.includes(subjectPart));

describe('the language of mails', () => {
  it('sends the verification mail in the language chosen at sign-up', async () => {
    const { verification } = await signUpIn('es', 'student', 'Lucía');
    expect(verification.subject).toBe('Verifica tu correo para Tutorlane');
    expect(verification.text).toContain('Hola, Lucía:');
    expect(verification.html).toContain('<html lang="es" dir="ltr">');
    expect(verification.html).toContain('Verificar mi correo');
  });

  it("writes each person's booking mail in their own language, never the sender's", async () => {
    const { person: student } = await signUpIn('es', 'student', 'Lucía García');
    const tutor = await person('tutor', 'Jonas Weber');
    const saved = await send(t, 'PATCH', '/api/profile', { language: 'de' }, tutor.jar);
    expect(saved.status, await saved.clone().text()).toBe(200);
    await publishTutor(tutor);
    await book(student, tutor, 5);

    const toTutor = await mailAbout(tutor.email, 'Lucía García');
    expect(toTutor.subject).toBe('Stunde bestätigt: Algebra-Stunde mit Lucía García (Tutorlane)');
    expect(toTutor.text).toContain('Hallo Jonas Weber,');
    expect(toTutor.text).toContain('Deine Algebra-Stunde mit Lucía García ist für ');
    // The date in German words, the button and the footer too.
    expect(toTutor.text).toMatch(/(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag), \d+\. /);
    expect(toTutor.html).toContain('<html lang="de" dir="ltr">');
    expect(toTutor.html).toContain('Meinen Kalender öffnen');
    expect(toTutor.calendar).toContain('Algebra-Stunde: Jonas Weber und Lucía García');

    const toStudent = await mailAbout(student.email, 'Jonas Weber');
    expect(toStudent.subject).toBe('Clase confirmada: clase de Algebra con Jonas Weber (Tutorlane)');
    expect(toStudent.text).toContain('Hola, Lucía García:');
    expect(toStudent.text).toContain('El precio es de 40');
    expect(toStudent.text).toMatch(/(lunes|martes|miércoles|jueves|viernes|sábado|domingo), \d+ de /);
    expect(toStudent.html).toContain('<html lang="es" dir="ltr">');
  });

  it("follows the school's default language for someone who never chose one", async () => {
    const admin = await person('student', 'Admin Person');
    const database = async (): Promise<Database> => ({ ...t.database, close: async () => {} });
    expect(await runAdminCommand(['grant', admin.email], database)).toMatchObject({ exitCode: 0 });
    const adminJar = (await signIn(t, admin.email)).jar;
    const changed = await send(t, 'PATCH', '/api/admin/settings', { defaultLanguage: 'es' }, adminJar);
    expect(changed.status, await changed.clone().text()).toBe(200);

    const { person: student } = await signUpIn('de', 'student', 'Greta Braun');
    // Signed up with no language chosen: the school's default, Spanish now, from the first mail on.
    const { person: tutor, verification } = await signUpIn(undefined, 'tutor', 'Sam Neutral');
    expect(verification.subject).toBe('Verifica tu correo para Tutorlane');
    await publishTutor(tutor);
    await book(student, tutor, 6);

    const toTutor = await mailAbout(tutor.email, 'Greta Braun');
    expect(toTutor.subject).toBe('Clase confirmada: clase de Algebra con Greta Braun (Tutorlane)');
    const toStudent = await mailAbout(student.email, 'Sam Neutral');
    expect(toStudent.subject).toBe('Stunde bestätigt: Algebra-Stunde mit Sam Neutral (Tutorlane)');

    // Back to English, as the other tests of this file's app expect nothing else.
    await send(t, 'PATCH', '/api/admin/settings', { defaultLanguage: null }, adminJar);
  });
});
