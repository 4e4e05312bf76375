/**
 * What the room page says of a lesson that has no room, to one of its two people: who cancelled
 * it and when (in the viewer's zone), that the tutor declined the request or that it expired,
 * that it is still a request, or that it has ended.
 */
import { setupI18n } from '@lingui/core';
import type { InferResponseType } from 'hono/client';
import type { api } from '../../lib/api';
import { i18n } from '../../lib/i18n';
import { instantLabel } from '../../lib/time-labels';

export type LessonInfo = InferResponseType<(typeof api.lessons)[':id']['$get'], 200>;

/** The English texts themselves, for when no catalogue is loaded (outside a page: unit tests). */
const english = setupI18n({ locale: 'en', messages: { en: {} } });

/** A text marked for translation, in the page's language. */
const say = (text: string, values?: Record<string, unknown>) =>
  (i18n.locale ? i18n : english)._(text, values);

/** Why a lesson has no room, said to one of its two people, with times in their zone. */
export function whyNoRoom(
  lesson: Pick<LessonInfo, 'status' | 'tutor' | 'student' | 'cancellation'>,
  you: 'tutor' | 'student',
  timeZone: string,
): { headline: string; details: string[] } {
  const name = lesson.tutor.displayName;
  const other = you === 'tutor' ? lesson.student.displayName : lesson.tutor.displayName;
  switch (lesson.status) {
    case 'cancelled': {
      const cancellation = lesson.cancellation;
      if (!cancellation.at || !cancellation.by)
        return { headline: say(/*i18n*/ 'This lesson was cancelled, so it has no room.'), details: [] };
      const at = instantLabel(Date.parse(cancellation.at), timeZone);
      const who =
        cancellation.by === 'tutorlane'
          ? cancellation.reason
            ? say(/*i18n*/ 'The Tutorlane team cancelled it on {at}.', { at })
            : say(/*i18n*/ "Tutorlane cancelled it on {at}, because {other}'s account is no longer active.", {
                at,
                other,
              })
          : cancellation.by === you
            ? say(/*i18n*/ 'You cancelled it on {at}.', { at })
            : say(/*i18n*/ '{other} cancelled it on {at}.', { other, at });
      const reason = cancellation.reason;
      return {
        headline: say(/*i18n*/ 'This lesson was cancelled, so it has no room.'),
        details: [who, ...(reason ? [say(/*i18n*/ 'Reason given: {reason}', { reason })] : [])],
      };
    }
    case 'declined':
      return {
        headline: say(/*i18n*/ 'This lesson request was declined, so it has no room.'),
        details: [
          you === 'tutor'
            ? say(/*i18n*/ 'You declined it.')
            : say(/*i18n*/ '{other} declined it.', { other }),
        ],
      };
    case 'expired':
      return {
        headline: say(/*i18n*/ 'This lesson request expired, so it has no room.'),
        details: [
          you === 'tutor'
            ? say(/*i18n*/ 'It expired before you answered it.')
            : say(/*i18n*/ 'It expired without an answer from {other}.', { other }),
        ],
      };
    case 'pending':
      return {
        headline: say(/*i18n*/ 'This lesson is still a request.'),
        details: [
          you === 'tutor'
            ? say(/*i18n*/ 'Its room opens once you accept it.')
            : say(/*i18n*/ 'Its room opens once {name} accepts it.', { name }),
        ],
      };
    default:
      // Taken place, or missed (marked a no-show): its room has closed for good.
      return {
        headline: say(/*i18n*/ 'This lesson has ended, and its room is closed.'),
        details:
          lesson.status === 'no_show'
            ? [
                you === 'tutor'
                  ? say(/*i18n*/ 'You marked that {other} did not join.', { other })
                  : say(/*i18n*/ '{other} marked that you did not join.', { other }),
              ]
            : [],
      };
  }
}
