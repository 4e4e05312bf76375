import { Hono } from 'hono';
import type { Role } from '../../shared/constants';
import { requireVerifiedUser, type SessionReader } from '../accounts/session';
import type { AppEnv } from '../http/app-env';

/** The schedule page's content (static until the calendar ships), with the role's wording. */
export function scheduleFor(role: Role) {
  const tutor = role === 'tutor';
  return {
    role,
    subtitle: tutor
      ? 'Manage your availability and upcoming sessions with students'
      : 'View and manage your upcoming lessons with tutors',
    upcomingEvents: tutor
      ? [
          { title: 'Algebra II with Emma Wilson', when: 'Today, 09:00' },
          { title: 'Physics with Lucas Martin', when: 'Today, 13:30' },
          { title: 'Calculus with Sofia Garcia', when: 'Today, 17:00' },
        ]
      : [
          { title: 'Calculus with Dr. Sarah Chen', when: 'Today, 16:00' },
          { title: 'Spanish with Miguel Torres', when: 'Tomorrow, 10:00' },
          { title: 'Python with Alex Kim', when: 'Friday, 18:30' },
        ],
    statistics: tutor
      ? [
          { label: 'Sessions this week', value: '14' },
          { label: 'Hours taught', value: '12.5' },
          { label: 'Open slots', value: '6' },
        ]
      : [
          { label: 'Lessons this week', value: '3' },
          { label: 'Hours learned', value: '2.75' },
          { label: 'Subjects', value: '3' },
        ],
  };
}

/** GET /api/schedule: the verified user's schedule (401 signed out, 403 unverified). */
export function scheduleRoutes(sessions: SessionReader) {
  return new Hono<AppEnv>().get('/schedule', sessions.loadSession, (c) =>
    c.json(scheduleFor(requireVerifiedUser(c).role), 200),
  );
}
