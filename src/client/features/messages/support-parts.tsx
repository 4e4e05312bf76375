/**
 * How support conversations look: the school's team has a headset for a face (no admin's photo or
 * initials), and admins see a "Support" tag beside the person's name, so they tell the
 * conversations they answer for the school from their own.
 */

import { Trans } from '@lingui/react/macro';

/** Support's picture: decorative, as the name "Support" is beside it. */
export function SupportAvatar({ size }: { size: number }) {
  return (
    <span
      aria-hidden="true"
      className="flex shrink-0 items-center justify-center rounded-full bg-brand-700 text-white"
      style={{ width: size, height: size }}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        style={{ width: size * 0.55, height: size * 0.55 }}
      >
        <path d="M4 14v-2a8 8 0 0 1 16 0v2" />
        <rect x="3" y="13" width="4" height="6" rx="1.5" />
        <rect x="17" y="13" width="4" height="6" rx="1.5" />
        <path d="M19 19c0 1.5-1.8 2.5-5 2.5" />
      </svg>
    </span>
  );
}

/** Marks, for an admin, a conversation they answer as Support. */
export function SupportTag() {
  return (
    <span className="shrink-0 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-200 ring-inset">
      <Trans>Support</Trans>
    </span>
  );
}
