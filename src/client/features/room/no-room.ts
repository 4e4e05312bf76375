/**
 * What the room page says of a lesson that has no room, to one of its two people: who cancelled
 * it and when (in the viewer's zone), that the tutor declined the request or that it expired,
 * that it is still a request, or that it has ended.
 */
import type { InferResponseType } from 'hono/client';
import type { api } from '../../lib/api';
import { instantLabel } from '../../lib/time-labels';

export type LessonInfo = InferResponseType<(typeof api.lessons)[':id']['$get'], 200>;

/** Why a lesson has no room, said to one of its two people, with times in their zone. */
export function whyNoRoom(
  lesson: Pick<LessonInfo, 'status' | 'tutor' | 'student' | 'cancellation'>,
  you: 'tutor' | 'student',
  timeZone: string,
): { headline: string; details: string[] } {
  const tutor = you === 'tutor' ? 'you' : lesson.tutor.displayName;
  const other = you === 'tutor' ? lesson.student.displayName : lesson.tutor.displayName;
  switch (lesson.status) {
    case 'cancelled': {
      const cancellation = lesson.cancellation;
      if (!cancellation.at || !cancellation.by)
        return { headline: 'This lesson was cancelled, so it has no room.', details: [] };
      const at = instantLabel(Date.parse(cancellation.at), timeZone);
      const who =
        cancellation.by === 'tutorlane'
          ? cancellation.reason
            ? `The Tutorlane team cancelled it on ${at}.`
            : `Tutorlane cancelled it on ${at}, because ${other}'s account is no longer active.`
          : `${cancellation.by === you ? 'You' : other} cancelled it on ${at}.`;
      return {
        headline: 'This lesson was cancelled, so it has no room.',
        details: [who, ...(cancellation.reason ? [`Reason given: ${cancellation.reason}`] : [])],
      };
    }
    case 'declined':
      return {
        headline: 'This lesson request was declined, so it has no room.',
        details: [you === 'tutor' ? 'You declined it.' : `${other} declined it.`],
      };
    case 'expired':
      return {
        headline: 'This lesson request expired, so it has no room.',
        details: [
          you === 'tutor'
            ? 'It expired before you answered it.'
            : `It expired without an answer from ${other}.`,
        ],
      };
    case 'pending':
      return {
        headline: 'This lesson is still a request.',
        details: [`Its room opens once ${tutor} ${you === 'tutor' ? 'accept' : 'accepts'} it.`],
      };
    default:
      // Taken place, or missed (marked a no-show): its room has closed for good.
      return {
        headline: 'This lesson has ended, and its room is closed.',
        details:
          lesson.status === 'no_show'
            ? [
                you === 'tutor'
                  ? `You marked that ${other} did not join.`
                  : `${other} marked that you did not join.`,
              ]
            : [],
      };
  }
}
