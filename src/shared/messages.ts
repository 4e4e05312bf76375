/**
 * The product's texts, written once. The first block is the product's original error catalogue:
 * its texts are the product's own and stay word for word.
 */
export const messages = {
  fillAllFields: 'Please fill in all fields',
  passwordsDoNotMatch: 'Passwords do not match',
  passwordTooShort: 'Password must be at least 6 characters',
  captchaRequired: 'Please complete the reCAPTCHA verification',
  loginFailedPrefix: 'Failed to log in: ',
  signupFailedPrefix: 'Failed to create account: ',
  verificationSent: 'Verification email sent! Please check your inbox.',
  verificationFailed: 'Failed to send verification email. Please try again.',
  contactSuccess: "Thank you for your message! We'll get back to you soon.",
  contactError: 'There was an error sending your message. Please try again.',

  // Texts added since, written in the same voice.
  passwordTooLong: 'Password must be at most 128 characters',
  passwordTooCommon: 'This password is too common. Please choose a less predictable one.',
  invalidEmail: 'Please enter a valid email address',
  invalidCredentials: 'Invalid email or password',
  emailInUse: 'An account with this email already exists',
  captchaInvalid: 'The human check failed or expired. Please try it again.',
  resetLinkSent: 'If an account exists for that email, we sent a link to reset your password.',
  resetLinkInvalid: 'This reset link is invalid or has expired. Please request a new one.',
  passwordResetDone: 'Your password has been reset. You can sign in with it now.',
  emailVerifiedNote: 'Your email is verified. Please sign in.',
  verificationLinkInvalid: 'This verification link is invalid or has expired. Please request a new one.',
  verificationLinkExpired: 'This verification link has expired. We can send you a new one.',
  tooManyRequests: 'Too many attempts. Please wait a moment and try again.',
  serviceUnavailable: 'The service is temporarily unavailable. Please try again shortly.',
  networkError: 'We could not reach the server. Please check your connection and try again.',
  unexpectedError: 'Something went wrong on our side. Please try again.',
  notSignedIn: 'Please sign in to continue.',
  emailNotVerified: 'Please verify your email address to continue.',
  adminsOnly: 'Only administrators can open this.',
  notFound: 'Not found',
  invalidRequest: 'The request is not valid.',
  bodyTooLarge: 'The request is too large.',
  requestAborted: 'The request was cut off before it arrived whole.',
  forbiddenOrigin: 'This request came from a site we do not trust.',
  profileSaved: 'Your profile has been saved.',
} as const;

export type MessageKey = keyof typeof messages;
