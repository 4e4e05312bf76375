/**
 * The product's texts, written once. The first block is the product's original error catalogue:
 * its texts are the product's own and stay word for word. One export per text, imported as a
 * namespace (`import * as messages`), so a page's code carries only the texts it uses.
 */
export const fillAllFields = /*i18n*/ 'Please fill in all fields';
export const passwordsDoNotMatch = /*i18n*/ 'Passwords do not match';
export const passwordTooShort = /*i18n*/ 'Password must be at least 6 characters';
export const captchaRequired = /*i18n*/ 'Please complete the reCAPTCHA verification';
export const loginFailedPrefix = /*i18n*/ 'Failed to log in: ';
export const signupFailedPrefix = /*i18n*/ 'Failed to create account: ';
export const verificationSent = /*i18n*/ 'Verification email sent! Please check your inbox.';
export const verificationFailed = /*i18n*/ 'Failed to send verification email. Please try again.';
export const contactSuccess = /*i18n*/ "Thank you for your message! We'll get back to you soon.";
export const contactError = /*i18n*/ 'There was an error sending your message. Please try again.';

// Texts added since, written in the same voice.
export const passwordTooLong = /*i18n*/ 'Password must be at most 128 characters';
export const passwordTooCommon =
  /*i18n*/ 'This password is too common. Please choose a less predictable one.';
export const invalidEmail = /*i18n*/ 'Please enter a valid email address';
export const invalidCredentials = /*i18n*/ 'Invalid email or password';
export const emailInUse = /*i18n*/ 'An account with this email already exists';
export const captchaInvalid = /*i18n*/ 'The human check failed or expired. Please try it again.';
export const resetLinkSent =
  /*i18n*/ 'If an account exists for that email, we sent a link to reset your password.';
export const resetLinkInvalid =
  /*i18n*/ 'This reset link is invalid or has expired. Please request a new one.';
export const passwordResetDone = /*i18n*/ 'Your password has been reset. You can sign in with it now.';
export const emailVerifiedNote = /*i18n*/ 'Your email is verified. Please sign in.';
export const verificationLinkInvalid =
  /*i18n*/ 'This verification link is invalid or has expired. Please request a new one.';
export const verificationLinkExpired =
  /*i18n*/ 'This verification link has expired. We can send you a new one.';
export const tooManyRequests = /*i18n*/ 'Too many attempts. Please wait a moment and try again.';
export const serviceUnavailable =
  /*i18n*/ 'The service is temporarily unavailable. Please try again shortly.';
export const networkError =
  /*i18n*/ 'We could not reach the server. Please check your connection and try again.';
export const unexpectedError = /*i18n*/ 'Something went wrong on our side. Please try again.';
export const notSignedIn = /*i18n*/ 'Please sign in to continue.';
export const emailNotVerified = /*i18n*/ 'Please verify your email address to continue.';
export const adminsOnly = /*i18n*/ 'Only administrators can open this.';
export const adminTwoFactorRequired =
  /*i18n*/ 'Turn on two-factor authentication before using the admin console: an admin account needs a code from an authenticator app as well as the password.';
export const adminTwoFactorSignInAgain =
  /*i18n*/ 'Sign out, then sign in again with a code from your authenticator app to use the admin console.';
export const twoFactorWrongCode =
  /*i18n*/ 'That code is not right. Check your authenticator app and try again.';
export const twoFactorWrongBackupCode =
  /*i18n*/ 'That backup code is not right, or it has been used already.';
export const twoFactorSignInExpired =
  /*i18n*/ 'Your sign-in has expired. Please sign in again with your password.';
export const twoFactorWrongPassword = /*i18n*/ 'That password is not right.';
export const twoFactorAlreadyOn = /*i18n*/ 'Two-factor authentication is already on for this account.';
export const twoFactorNotOn = /*i18n*/ 'Two-factor authentication is not on for this account.';
export const notFound = /*i18n*/ 'Not found';
export const invalidRequest = /*i18n*/ 'The request is not valid.';
export const bodyTooLarge = /*i18n*/ 'The request is too large.';
export const requestAborted = /*i18n*/ 'The request was cut off before it arrived whole.';
export const forbiddenOrigin = /*i18n*/ 'This request came from a site we do not trust.';
export const profileSaved = /*i18n*/ 'Your profile has been saved.';
