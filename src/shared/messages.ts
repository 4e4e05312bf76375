/**
 * The product's texts, written once. The first block is the product's original error catalogue:
 * its texts are the product's own and stay word for word. One export per text, imported as a
 * namespace (`import * as messages`), so a page's code carries only the texts it uses.
 */
export const fillAllFields = 'Please fill in all fields';
export const passwordsDoNotMatch = 'Passwords do not match';
export const passwordTooShort = 'Password must be at least 6 characters';
export const captchaRequired = 'Please complete the reCAPTCHA verification';
export const loginFailedPrefix = 'Failed to log in: ';
export const signupFailedPrefix = 'Failed to create account: ';
export const verificationSent = 'Verification email sent! Please check your inbox.';
export const verificationFailed = 'Failed to send verification email. Please try again.';
export const contactSuccess = "Thank you for your message! We'll get back to you soon.";
export const contactError = 'There was an error sending your message. Please try again.';

// Texts added since, written in the same voice.
export const passwordTooLong = 'Password must be at most 128 characters';
export const passwordTooCommon = 'This password is too common. Please choose a less predictable one.';
export const invalidEmail = 'Please enter a valid email address';
export const invalidCredentials = 'Invalid email or password';
export const emailInUse = 'An account with this email already exists';
export const captchaInvalid = 'The human check failed or expired. Please try it again.';
export const resetLinkSent = 'If an account exists for that email, we sent a link to reset your password.';
export const resetLinkInvalid = 'This reset link is invalid or has expired. Please request a new one.';
export const passwordResetDone = 'Your password has been reset. You can sign in with it now.';
export const emailVerifiedNote = 'Your email is verified. Please sign in.';
export const verificationLinkInvalid =
  'This verification link is invalid or has expired. Please request a new one.';
export const verificationLinkExpired = 'This verification link has expired. We can send you a new one.';
export const tooManyRequests = 'Too many attempts. Please wait a moment and try again.';
export const serviceUnavailable = 'The service is temporarily unavailable. Please try again shortly.';
export const networkError = 'We could not reach the server. Please check your connection and try again.';
export const unexpectedError = 'Something went wrong on our side. Please try again.';
export const notSignedIn = 'Please sign in to continue.';
export const emailNotVerified = 'Please verify your email address to continue.';
export const adminsOnly = 'Only administrators can open this.';
export const adminTwoFactorRequired =
  'Turn on two-factor authentication before using the admin console: an admin account needs a code from an authenticator app as well as the password.';
export const adminTwoFactorSignInAgain =
  'Sign out, then sign in again with a code from your authenticator app to use the admin console.';
export const twoFactorWrongCode = 'That code is not right. Check your authenticator app and try again.';
export const twoFactorWrongBackupCode = 'That backup code is not right, or it has been used already.';
export const twoFactorSignInExpired = 'Your sign-in has expired. Please sign in again with your password.';
export const twoFactorWrongPassword = 'That password is not right.';
export const twoFactorAlreadyOn = 'Two-factor authentication is already on for this account.';
export const twoFactorNotOn = 'Two-factor authentication is not on for this account.';
export const notFound = 'Not found';
export const invalidRequest = 'The request is not valid.';
export const bodyTooLarge = 'The request is too large.';
export const requestAborted = 'The request was cut off before it arrived whole.';
export const forbiddenOrigin = 'This request came from a site we do not trust.';
export const profileSaved = 'Your profile has been saved.';
