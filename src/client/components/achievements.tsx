/** The student's achievements: each earned one with its date, the ones ahead in grey. */

import { Trans } from '@lingui/react/macro';
import type { Achievement } from '../../shared/progress/progress-rules';
import { translated } from '../lib/i18n';
import { dayLabel } from '../lib/time-labels';

export function Achievements({ achievements, timeZone }: { achievements: Achievement[]; timeZone: string }) {
  return (
    <ul className="space-y-3">
      {achievements.map((achievement) => {
        const earned = achievement.earnedAt !== null;
        const day = achievement.earnedAt ? dayLabel(Date.parse(achievement.earnedAt), timeZone) : '';
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
                {translated(achievement.title)}
              </p>
              <p className="text-sm text-slate-600">
                {translated(achievement.description)}
                {' · '}
                {achievement.earnedAt ? <Trans>Earned {day}</Trans> : <Trans>Not yet</Trans>}
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
