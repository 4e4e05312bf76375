/**
 * The checks every form of the browser app makes before sending, one zod schema per form, built
 * from the field schemas the server applies (./schemas.ts, ./tutor-schemas.ts): the visitor reads
 * the server's own words before a request is spent, and every field at fault is marked, not only
 * the first. The server repeats every check. The browser loads this module when a form is first
 * touched, not with the page: zod is most of its weight.
 */
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './constants';
import * as messages from './messages';
import { contactMessageSchema, displayNameSchema, emailSchema } from './schemas';
import {
  type HourlyRateRange,
  hourlyRateRangeMessage,
  MAX_SUPPORT_REPLY_HOURS,
} from './settings/site-settings';
import {
  homeFiguresSchema,
  newSubjectSchema,
  paymentInstructionsSchema,
  REPLY_HOURS_PROBLEM,
  supportSchema,
} from './settings/site-settings-schemas';
import { signUpProblems } from './sign-up-checks';
import { MAX_YEARS_EXPERIENCE } from './tutor-catalog';
import {
  aboutSchema,
  HOURLY_RATE_NOT_WHOLE,
  headlineSchema,
  languagesSchema,
  learningGoalsSchema,
  subjectsSchema,
  timeZoneSchema,
} from './tutor-schemas';

/** A text input's value; a field missing from the form reads as empty. */
const text = z.string().catch('');
const required = text.refine((value) => value.trim() !== '', messages.fillAllFields);

export const signInForm = z.object({ email: required, password: required });

export const signUpForm = z
  .object({ name: text, email: text, password: text, confirmPassword: text, captcha: text })
  .superRefine((form, ctx) => {
    const problems = signUpProblems({
      fullName: form.name,
      email: form.email,
      password: form.password,
      confirmPassword: form.confirmPassword,
      captchaDone: form.captcha !== '',
    });
    for (const { field, message } of problems) ctx.addIssue({ code: 'custom', path: [field], message });
    // What the server would refuse next, said in the same go (one submit shows every problem),
    // after the product's messages so the first of those still comes first; a field already
    // named keeps its first problem.
    const named = new Set(problems.map((problem) => problem.field));
    if (!named.has('email') && !emailSchema.safeParse(form.email).success) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: messages.invalidEmail });
    }
    const name = named.has('name') ? undefined : displayNameSchema.safeParse(form.name).error?.issues[0];
    if (name) ctx.addIssue({ code: 'custom', path: ['name'], message: name.message });
  });

export const emailForm = z.object({ email: emailSchema });

export const resetPasswordForm = z
  .object({ newPassword: text, confirmPassword: text })
  .superRefine((form, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (!form.newPassword) issue('newPassword', messages.fillAllFields);
    if (!form.confirmPassword) issue('confirmPassword', messages.fillAllFields);
    if (!form.newPassword || !form.confirmPassword) return;
    if (form.newPassword !== form.confirmPassword) issue('confirmPassword', messages.passwordsDoNotMatch);
    else if (form.newPassword.length < MIN_PASSWORD_LENGTH) issue('newPassword', messages.passwordTooShort);
    else if (form.newPassword.length > MAX_PASSWORD_LENGTH) issue('newPassword', messages.passwordTooLong);
  });

/** The contact form: "Please fill in all fields" for every empty one first, then the server's rules. */
export const contactForm = z
  .object({ name: text, email: text, subject: text, message: text })
  .superRefine((form, ctx) => {
    const empty = (['name', 'email', 'message'] as const).filter((field) => !form[field].trim());
    for (const field of empty)
      ctx.addIssue({ code: 'custom', path: [field], message: messages.fillAllFields });
    if (empty.length > 0) return;
    for (const issue of contactMessageSchema.safeParse(form).error?.issues ?? []) {
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  })
  .pipe(contactMessageSchema);

/** A whole number from a text input, or null when it is left empty. */
const wholeNumber = (message: string, min: number, max: number, range: string) =>
  text
    .transform((value) => value.trim())
    .refine((value) => value === '' || /^\d+$/.test(value), message)
    .transform((value) => (value === '' ? null : Number(value)))
    .refine((value) => value === null || (value >= min && value <= max), range);

/** A checkbox: sent as "on" when ticked, absent when not. */
const ticked = z
  .string()
  .optional()
  .transform((value) => value === 'on');

/** The two reminder checkboxes, sent as the profile's `reminders`. */
const reminderBoxes = {
  reminderDayBefore: ticked,
  reminderHourBefore: ticked,
};
const withReminders = <T extends { reminderDayBefore: boolean; reminderHourBefore: boolean }>({
  reminderDayBefore,
  reminderHourBefore,
  ...rest
}: T) => ({ ...rest, reminders: { dayBefore: reminderDayBefore, hourBefore: reminderHourBefore } });

/**
 * A tutor's profile as the form sends it. The hourly rate's range is the school's (a site
 * setting), said in its currency.
 */
export const tutorProfileForm = (rates: { range: HourlyRateRange; currency: string }) =>
  z
    .object({
      displayName: displayNameSchema,
      messageMails: ticked,
      ...reminderBoxes,
      timeZone: timeZoneSchema,
      headline: headlineSchema,
      about: aboutSchema,
      subjects: subjectsSchema,
      hourlyRate: wholeNumber(
        HOURLY_RATE_NOT_WHOLE,
        rates.range.min,
        rates.range.max,
        hourlyRateRangeMessage(rates.range, rates.currency),
      ),
      languages: languagesSchema,
      yearsExperience: wholeNumber(
        /*i18n*/ 'Years of experience must be a whole number',
        0,
        MAX_YEARS_EXPERIENCE,
        /*i18n*/ 'Years of experience must be at most 60',
      ),
    })
    .transform(withReminders);

export const studentProfileForm = z
  .object({
    displayName: displayNameSchema,
    messageMails: ticked,
    ...reminderBoxes,
    timeZone: timeZoneSchema,
    learningGoals: learningGoalsSchema,
  })
  .transform(withReminders);

/** The console's Site settings: each form checks its part of the change, as the server will. */
export const homeFiguresForm = z.object(homeFiguresSchema.shape);
export const supportForm = z.object(supportSchema.shape);
export const newSubjectForm = z.object(newSubjectSchema.shape);
/** Support's reply time: hours, or left empty to promise none. */
export const supportReplyForm = z.object({
  supportReplyHours: wholeNumber(REPLY_HOURS_PROBLEM, 1, MAX_SUPPORT_REPLY_HOURS, REPLY_HOURS_PROBLEM),
});
/** The payment instructions: written out (going back to the default ones is a button of its own). */
export const paymentInstructionsForm = z.object({ paymentInstructions: paymentInstructionsSchema.unwrap() });
