import { plural } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { VERIFIED_TUTOR_LABEL, VERIFIED_TUTOR_MEANING } from '../../shared/verified-tutor';
import { translated } from '../lib/i18n';

const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');

/** Where a tutor's photo is served; the version makes a new photo bypass the browser's cache. */
export const photoUrl = (id: string, version: string | null) =>
  `/api/tutors/${encodeURIComponent(id)}/photo${version ? `?v=${version}` : ''}`;

/** The tutor's photo, or their initials when there is none. Decorative: the name is beside it. */

export function TutorAvatar({
  id,
  name,
  photoVersion,
  size,
  src,
}: {
  id: string;
  name: string;
  photoVersion: string | null;
  size: number;
  /** Overrides the public URL (the tutor's own, unpublished photo). */
  src?: string;
}) {
  const style = { width: size, height: size };
  if (photoVersion || src) {
    return (
      <img
        src={src ?? photoUrl(id, photoVersion)}
        alt=""
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
        className="shrink-0 rounded-full bg-slate-100 object-cover"
        style={style}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className="flex shrink-0 items-center justify-center rounded-full bg-brand-100 font-bold text-brand-800"
      style={{ ...style, fontSize: size / 2.6 }}
    >
      {initialsOf(name)}
    </span>
  );
}

/**
 * "Verified tutor": an administrator reviewed and approved the profile. Only approved tutors carry
 * it, and it says what it means to every visitor: on hover and to screen readers.
 */
export function VerifiedBadge() {
  return (
    <span
      title={translated(VERIFIED_TUTOR_MEANING)}
      className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800"
    >
      <svg viewBox="0 0 20 20" className="size-3.5" fill="currentColor" aria-hidden="true">
        <path d="M10 1l2.4 1.8 3 .1.9 2.8 2.4 1.8-.9 2.9.9 2.8-2.4 1.8-.9 2.8-3 .1L10 19l-2.4-1.8-3-.1-.9-2.8L1.3 12.5l.9-2.8-.9-2.9 2.4-1.8.9-2.8 3-.1L10 1zm-1.2 12.2l5.3-5.3-1.4-1.4-3.9 3.9-1.9-1.9-1.4 1.4 3.3 3.3z" />
      </svg>
      {translated(VERIFIED_TUTOR_LABEL)}{' '}
      <span className="sr-only">
        <Trans>(an administrator checked this profile)</Trans>
      </span>
    </span>
  );
}

/** "1 year of experience", "10 years of experience": beside the avatar on a card and a tutor's page. */
export const experienceLabel = (years: number) =>
  plural(years, { one: '# year of experience', other: '# years of experience' });
