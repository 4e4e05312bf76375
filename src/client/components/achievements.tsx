/** The student's achievements: each earned one with its date, the ones ahead in grey. */

import type { Achievement } from '../../shared/progress/progress-rules';
import { dayLabel } from '../lib/time-labels';

export function Achievements({ achievements, timeZone }: { achievements: Achievement[]; timeZone: string }) {
  return (
    <ul className="space-y-3">
      {achievements.map((achievement) => {
        const earned = achievement.earnedAt !== null;
        return (
          <li key={achievement.id} className="flex items-start gap-3">
            <span
              aria-hidden="true"
              className={`mt-0.5 grid size-8 shrink-0 place-items-center rounded-full text-sm font-bold ${
                earned ? 'bg-amber-100 text-amber-800' : 'bg-slate-100 text-slate-500'
              }`}
            >
              {earned ? '★' : '☆'}
            </span>
            <div>
              <p className={`font-medium ${earned ? 'text-slate-900' : 'text-slate-600'}`}>
                {achievement.title}
              </p>
              <p className="text-sm text-slate-600">
                {achievement.description}
                {' · '}
                {achievement.earnedAt
                  ? `Earned ${dayLabel(Date.parse(achievement.earnedAt), timeZone)}`
                  : 'Not yet'}
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
