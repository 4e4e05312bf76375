/**
 * The sign-up form's checks, in the order the product's messages are given: the human check, the
 * passwords matching, the password's length, the fields filled in. Plain code without zod, so the
 * server's hook can run it before anything else; the browser marks every field it names.
 */
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './constants';
import * as messages from './messages';

export interface SignUpFields {
  fullName: string;
  email: string;
  password: string;
  confirmPassword: string;
  captchaDone: boolean;
}

export interface SignUpProblem {
  /** The form field it is about; `captcha` for the human check. */
  field: 'name' | 'email' | 'password' | 'confirmPassword' | 'captcha';
  message: string;
}

/** Every problem with the form, in the order their messages are given. */
export function signUpProblems(fields: SignUpFields): SignUpProblem[] {
  const problems: SignUpProblem[] = [];
  if (!fields.captchaDone) problems.push({ field: 'captcha', message: messages.captchaRequired });
  if (fields.password !== fields.confirmPassword) {
    problems.push({ field: 'confirmPassword', message: messages.passwordsDoNotMatch });
  }
  if (fields.password.length < MIN_PASSWORD_LENGTH) {
    problems.push({ field: 'password', message: messages.passwordTooShort });
  }
  if (fields.fullName.trim() === '') problems.push({ field: 'name', message: messages.fillAllFields });
  if (fields.email.trim() === '') problems.push({ field: 'email', message: messages.fillAllFields });
  if (fields.password.length > MAX_PASSWORD_LENGTH) {
    problems.push({ field: 'password', message: messages.passwordTooLong });
  }
  return problems;
}

/** The first problem's message, or null when the form may be sent. */
export function firstSignUpProblem(fields: SignUpFields): string | null {
  return signUpProblems(fields)[0]?.message ?? null;
}
