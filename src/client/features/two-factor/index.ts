/** Two-factor authentication: setting it up, new backup codes, turning it off (on /profile, and for admins before the console). */
export { TwoFactorSettings } from './two-factor-settings';
