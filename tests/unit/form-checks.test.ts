/**
 * The forms' checks (src/shared/form-checks.ts, through src/client/lib/forms.ts's check()): the
 * first message is the one the product gives first, and every field at fault is named.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../src/client/lib/forms';
import {
  contactForm,
  resetPasswordForm,
  signInForm,
  signUpForm,
  tutorProfileForm,
} from '../../src/shared/form-checks';
import * as messages from '../../src/shared/messages';
import { contactMessageSchema, displayNameSchema } from '../../src/shared/schemas';

const contact = { name: 'Ada', email: 'ada@example.com', subject: 'general', message: 'Hello' };
const signUp = {
  name: 'Ada',
  email: 'ada@example.com',
  password: 'secret-42',
  confirmPassword: 'secret-42',
  captcha: 'solved',
};
const tutor = {
  displayName: 'Ada',
  timeZone: 'Europe/Berlin',
  headline: '',
  about: '',
  subjects: [],
  hourlyRate: '',
  languages: [],
  yearsExperience: '',
};

describe('the contact form', () => {
  it('asks for every empty field at once, before anything else', () => {
    const { problem } = check(contactForm, { name: ' ', email: '', subject: '', message: '' });
    expect(problem?.message).toBe(messages.fillAllFields);
    expect(Object.keys(problem?.fields ?? {})).toEqual(['name', 'email', 'message']);
  });

  it("then applies the server's rules, in its words, and sends the cleaned message", () => {
    expect(check(contactForm, { ...contact, email: 'ada@example' }).problem).toEqual({
      message: messages.invalidEmail,
      fields: { email: messages.invalidEmail },
    });
    expect(check(contactForm, { ...contact, subject: '' }).problem?.fields).toEqual({
      subject: 'Please choose a subject',
    });
    expect(check(contactForm, { ...contact, name: 'x'.repeat(81) }).problem?.message).toBe(
      'Name must be at most 80 characters',
    );
    expect(check(contactForm, { ...contact, email: ' Ada@Example.com ' }).data?.email).toBe(
      'ada@example.com',
    );
  });
});

describe('the sign-up form', () => {
  it('gives the first problem in the product order and names every field at fault', () => {
    const { problem } = check(signUpForm, {
      name: '',
      email: '',
      password: 'abc',
      confirmPassword: 'abd',
      captcha: '',
    });
    expect(problem?.message).toBe(messages.captchaRequired);
    expect(problem?.fields).toEqual({
      captcha: messages.captchaRequired,
      confirmPassword: messages.passwordsDoNotMatch,
      password: messages.passwordTooShort,
      name: messages.fillAllFields,
      email: messages.fillAllFields,
    });
  });

  it('names every problem in one go, the product order first, each field once', () => {
    const { problem } = check(signUpForm, {
      name: 'N'.repeat(300),
      email: 'not-an-email',
      password: 'abc',
      confirmPassword: 'abd',
      captcha: '',
    });
    expect(problem?.message).toBe(messages.captchaRequired);
    expect(problem?.fields).toEqual({
      captcha: messages.captchaRequired,
      confirmPassword: messages.passwordsDoNotMatch,
      password: messages.passwordTooShort,
      email: messages.invalidEmail,
      name: 'Name must be at most 80 characters',
    });
    // Without the product's own problems, the first of the others leads.
    expect(check(signUpForm, { ...signUp, name: 'N'.repeat(81), email: 'not-an-email' }).problem).toEqual({
      message: messages.invalidEmail,
      fields: { email: messages.invalidEmail, name: 'Name must be at most 80 characters' },
    });
    // An empty field is asked for, not also called malformed.
    expect(check(signUpForm, { ...signUp, email: ' ' }).problem?.fields).toEqual({
      email: messages.fillAllFields,
    });
  });

  it('catches a malformed email and a name with invisible characters before the check is spent', () => {
    expect(check(signUpForm, { ...signUp, email: 'ada@example' }).problem?.fields).toEqual({
      email: messages.invalidEmail,
    });
    expect(check(signUpForm, { ...signUp, name: 'Ada\u202e' }).problem?.fields.name).toMatch(/invisible/);
    expect(check(signUpForm, signUp).problem).toBeUndefined();
  });
});

describe('the other account forms', () => {
  it('sign-in asks for both fields', () => {
    expect(check(signInForm, { email: '', password: '' }).problem).toEqual({
      message: messages.fillAllFields,
      fields: { email: messages.fillAllFields, password: messages.fillAllFields },
    });
  });

  it('reset asks for both passwords, then that they match, then their length', () => {
    expect(check(resetPasswordForm, { newPassword: '', confirmPassword: '' }).problem?.fields).toEqual({
      newPassword: messages.fillAllFields,
      confirmPassword: messages.fillAllFields,
    });
    expect(
      check(resetPasswordForm, { newPassword: 'abcdef', confirmPassword: 'abcdeg' }).problem?.message,
    ).toBe(messages.passwordsDoNotMatch);
    expect(check(resetPasswordForm, { newPassword: 'abc', confirmPassword: 'abc' }).problem?.message).toBe(
      messages.passwordTooShort,
    );
  });
});

describe("a tutor's profile form", () => {
  const tutorForm = tutorProfileForm({ range: { min: 5, max: 500 }, currency: 'USD' });
  it("says a rate must be whole before it says the range, in the school's currency", () => {
    expect(check(tutorForm, { ...tutor, hourlyRate: '25.5' }).problem?.fields).toEqual({
      hourlyRate: 'Hourly rate must be a whole number',
    });
    const yen = tutorProfileForm({ range: { min: 500, max: 50_000 }, currency: 'JPY' });
    expect(check(yen, { ...tutor, hourlyRate: '400' }).problem?.message).toBe(
      'Hourly rate must be between ¥500 and ¥50,000',
    );
    expect(check(yen, { ...tutor, hourlyRate: '3000' }).data?.hourlyRate).toBe(3000);
    expect(check(tutorForm, { ...tutor, hourlyRate: '4' }).problem?.message).toBe(
      'Hourly rate must be between $5 and $500',
    );
    expect(check(tutorForm, { ...tutor, hourlyRate: ' 45 ' }).data?.hourlyRate).toBe(45);
    expect(check(tutorForm, tutor).data?.hourlyRate).toBeNull();
  });

  it('sends its lesson reminder boxes as the profile’s reminders, unticked as false', () => {
    expect(check(tutorForm, tutor).data?.reminders).toEqual({ dayBefore: false, hourBefore: false });
    const ticked = check(tutorForm, { ...tutor, reminderHourBefore: 'on' }).data;
    expect(ticked?.reminders).toEqual({ dayBefore: false, hourBefore: true });
    expect(ticked).not.toHaveProperty('reminderHourBefore');
  });
});

describe('the name rules', () => {
  const invisible = 'Name must not contain invisible formatting characters (such as text direction marks)';
  const nothingVisible = 'Name must contain at least one visible letter, digit or symbol';
  const firstProblem = (name: string) => displayNameSchema.safeParse(name).error?.issues[0]?.message;

  it.each([
    ['a Hangul filler alone', '\u3164', invisible],
    ['a Hangul filler between words', 'Ada\u3164Lovelace', invisible],
    ['the Hangul choseong and jungseong fillers', '\u115F\u1160', invisible],
    ['the halfwidth Hangul filler', '\uFFA0', invisible],
    ['the blank Braille pattern', '\u2800', invisible],
    ['a soft hyphen', 'Ada\u00ADLovelace', invisible],
    ['a tag character', 'Ada\u{E0041}', invisible],
    ['the cancel tag', 'Ada\u{E007F}', invisible],
    ['the line separator', 'Ada\u2028Lovelace', invisible],
    ['the paragraph separator', 'Ada\u2029Lovelace', invisible],
    ['the Mongolian vowel separator (another format character)', 'Ada\u180ELovelace', invisible],
    ['a word joiner', 'Ada\u2060Lovelace', invisible],
    ['a combining mark with nothing to sit on', '\u0301', nothingVisible],
    ['variation selectors alone', '\uFE0F\uFE0F', nothingVisible],
  ])('refuses %s', (_label, name, message) => {
    expect(firstProblem(name)).toBe(message);
    expect(contactMessageSchema.shape.name.safeParse(name).error?.issues[0]?.message).toBe(message);
  });

  it.each(['Zoë Ångström', '李小龍', 'José 🙂', 'Ana ❤️', "Seán O'Brien-Ní", 'محمد', '김하늘', 'X Æ A-12'])(
    'accepts %s',
    (name) => {
      expect(displayNameSchema.safeParse(name).success).toBe(true);
    },
  );

  it('says so in the sign-up form, before the check is spent', () => {
    expect(check(signUpForm, { ...signUp, name: '\u3164' }).problem?.fields.name).toBe(invisible);
  });
});
