/**
 * The seed's sign-up checks in the seed's order (seed-spec section 5). Plain code without zod, so
 * the sign-up page stays light; the server runs the same function before anything else.
 */
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './constants';
import { messages } from './messages';

export interface SignUpFields {
  fullName: string;
  email: string;
  password: string;
  confirmPassword: string;
  captchaDone: boolean;
}

/**
 * The seed's sign-up checks, in the seed's order (seed-spec section 5). Returns the first
 * message that applies, or null when the form may be sent.
 */
export function firstSignUpProblem(fields: SignUpFields): string | null {
  if (!fields.captchaDone) return messages.captchaRequired;
  if (fields.password !== fields.confirmPassword) return messages.passwordsDoNotMatch;
  if (fields.password.length < MIN_PASSWORD_LENGTH) return messages.passwordTooShort;
  if (fields.email.trim() === '' || fields.fullName.trim() === '') return messages.fillAllFields;
  if (fields.password.length > MAX_PASSWORD_LENGTH) return messages.passwordTooLong;
  return null;
}
