/**
 * The new class's form: its fields, and its sessions laid out in the tutor's zone and listed
 * before it is sent, so the tutor sees each date (a course crossing a change of the clocks keeps
 * its wall-clock time). The page's action (new-class-page.tsx) reads and sends it.
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useState } from 'react';
import { useFetcher } from 'react-router';
import { minorDigits } from '../../../shared/amounts';
import {
  MAX_CLASS_DESCRIPTION_LENGTH,
  MAX_CLASS_SEATS,
  MAX_CLASS_TITLE_LENGTH,
  MIN_CLASS_SEATS,
} from '../../../shared/classes/class-constants';
import { amountExample } from '../../../shared/money/amounts';
import type { SubjectCatalog } from '../../../shared/tutor-catalog';
import { ChoiceGroup } from '../../components/choice-group';
import { fieldClass } from '../../components/field-class';
import {
  ActionForm,
  FieldProblemLine,
  FormAnswerMessage,
  SubmitButton,
  useFieldProblem,
} from '../../components/form';
import { SelectField, TextArea, TextField } from '../../components/text-field';
import { ZoneNote } from '../../components/zone-note';
import type { FormAnswer } from '../../lib/forms';
import { translated, withTexts } from '../../lib/i18n';
import { lessonTimeLabel } from '../../lib/time-labels';
import { MAX_COURSE_SESSIONS, MIN_COURSE_SESSIONS, type Plan, plannedStarts, todayIn } from './session-plan';

let classChecks: Promise<typeof import('../../../shared/classes/class-schemas')> | undefined;

/**
 * The API's schema for a class, fetched once, as the form is drawn. It is not among
 * src/shared/form-checks.ts's: it reads instants with the lessons' schemas, which bring Temporal,
 * and every other form would then load it.
 */
export function loadClassChecks() {
  classChecks ??= withTexts(
    import('../../../shared/classes/class-schemas'),
    '../shared/classes/class-schemas.ts',
  ).catch((error: unknown) => {
    classChecks = undefined;
    throw error;
  });
  return classChecks;
}

export function NewClassForm({
  catalog,
  currency,
  languages,
  lengths,
  timeZone,
}: {
  catalog: SubjectCatalog;
  currency: string;
  languages: string[];
  lengths: number[];
  timeZone: string;
}) {
  const { t } = useLingui();
  const fetcher = useFetcher<FormAnswer>();
  // The checks come while the tutor fills the form in (this page is theirs alone: no visitor waits for it).
  useEffect(() => void loadClassChecks().catch(() => {}), []);
  const [plan, setPlan] = useState<Plan>({ kind: 'one', date: '', time: '', weeks: '6' });
  const [minutes, setMinutes] = useState(lengths[0] ?? 60);
  const [seats, setSeats] = useState(MAX_CLASS_SEATS);
  const maxTitle = MAX_CLASS_TITLE_LENGTH;
  const example = amountExample(currency, translated);
  const seatChoices = Array.from(
    { length: MAX_CLASS_SEATS - MIN_CLASS_SEATS + 1 },
    (_, i) => MIN_CLASS_SEATS + i,
  );
  return (
    <ActionForm
      fetcher={fetcher}
      className="space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
    >
      <div className="space-y-6">
        <input type="hidden" name="timeZone" value={timeZone} />
        <TextField
          label={t`Title`}
          name="title"
          limit={MAX_CLASS_TITLE_LENGTH}
          hint={t`One line students see first (at most ${maxTitle} characters).`}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <SelectField label={t`Subject`} name="subject" defaultValue="">
            <option value="" disabled>
              {t`Choose a subject`}
            </option>
            {catalog
              .filter((entry) => entry.offered.length > 0)
              .map((entry) => (
                <optgroup key={entry.category} label={translated(entry.category)}>
                  {entry.offered.map((subject) => (
                    <option key={subject} value={subject}>
                      {translated(subject)}
                    </option>
                  ))}
                </optgroup>
              ))}
          </SelectField>
          <SelectField
            label={t`Taught in`}
            name="language"
            defaultValue={languages.length === 1 ? languages[0] : ''}
            hint={t`One of the languages on your profile.`}
          >
            {languages.length === 1 ? null : (
              <option value="" disabled>
                {t`Choose a language`}
              </option>
            )}
            {languages.map((language) => (
              <option key={language} value={language}>
                {translated(language)}
              </option>
            ))}
          </SelectField>
        </div>
        <TextArea
          label={t`Description`}
          name="description"
          rows={5}
          limit={MAX_CLASS_DESCRIPTION_LENGTH}
          hint={t`What the class covers, for whom, and what to bring.`}
        />
        <div className="grid gap-5 sm:grid-cols-3">
          <SelectField
            label={t`Length of a session`}
            name="minutes"
            value={String(minutes)}
            onChange={(event) => setMinutes(Number(event.target.value))}
            hint={t`Your lesson lengths.`}
          >
            {lengths.map((length) => (
              <option key={length} value={length}>
                {t`${length} minutes`}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t`Seats`}
            name="seats"
            value={String(seats)}
            onChange={(event) => setSeats(Number(event.target.value))}
            hint={t`Students at most.`}
          >
            {seatChoices.map((count) => (
              <option key={count} value={count}>
                {count}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t`Minimum students`}
            name="minStudents"
            defaultValue="1"
            hint={t`Fewer a day before: it is cancelled.`}
          >
            {Array.from({ length: seats }, (_, i) => i + 1).map((count) => (
              <option key={count} value={count}>
                {count}
              </option>
            ))}
          </SelectField>
        </div>
        <TextField
          label={t`Price per student per session (${currency})`}
          name="price"
          inputMode={minorDigits(currency) === 0 ? 'numeric' : 'decimal'}
          defaultValue="0"
          hint={t`0 for a free class; otherwise an amount such as ${example}.`}
          className="sm:max-w-xs"
        />
        <SessionsFields plan={plan} onPlan={setPlan} minutes={minutes} timeZone={timeZone} />
      </div>
      <FormAnswerMessage />
      <SubmitButton size="lg" busyLabel={t`Creating…`}>
        <Trans>Create the class</Trans>
      </SubmitButton>
    </ActionForm>
  );
}

function SessionsFields({
  plan,
  onPlan,
  minutes,
  timeZone,
}: {
  plan: Plan;
  onPlan: (plan: Plan) => void;
  minutes: number;
  timeZone: string;
}) {
  const { t } = useLingui();
  const dateId = useId();
  const timeId = useId();
  const weeksId = useId();
  const dateProblem = useFieldProblem('date', `${dateId}-problem`);
  const weeksProblem = useFieldProblem('weeks', `${weeksId}-problem`);
  const laid = plannedStarts(plan, timeZone);
  const starts = 'starts' in laid ? laid.starts : [];
  const min = MIN_COURSE_SESSIONS;
  const max = MAX_COURSE_SESSIONS;
  const change = (part: Partial<Plan>) => onPlan({ ...plan, ...part });
  return (
    <ChoiceGroup legend={t`Sessions`} name="kind">
      <ZoneNote timeZone={timeZone} className="mt-1" />
      <div className="mt-2 flex flex-col gap-1 sm:flex-row sm:gap-6">
        {(['one', 'weekly'] as const).map((kind) => (
          <label key={kind} className="flex min-h-11 items-center gap-3 text-sm font-medium text-slate-800">
            <input
              type="radio"
              name="kind"
              value={kind}
              checked={plan.kind === kind}
              onChange={() => change({ kind })}
              className="size-4"
            />
            {kind === 'one' ? <Trans>One session</Trans> : <Trans>A weekly course</Trans>}
          </label>
        ))}
      </div>
      <div className="mt-3 grid gap-5 sm:grid-cols-3">
        <div>
          <label htmlFor={dateId} className="block text-sm font-medium text-slate-800">
            {plan.kind === 'one' ? <Trans>Date</Trans> : <Trans>First date</Trans>}
          </label>
          <input
            id={dateId}
            type="date"
            name="date"
            min={todayIn(timeZone)}
            value={plan.date}
            onChange={(event) => change({ date: event.target.value })}
            aria-invalid={dateProblem ? true : undefined}
            aria-describedby={dateProblem?.describedBy}
            className={fieldClass}
          />
          <FieldProblemLine id={`${dateId}-problem`} problem={dateProblem} />
        </div>
        <div>
          <label htmlFor={timeId} className="block text-sm font-medium text-slate-800">
            <Trans>Start time</Trans>
          </label>
          <input
            id={timeId}
            type="time"
            name="time"
            value={plan.time}
            onChange={(event) => change({ time: event.target.value })}
            aria-invalid={dateProblem ? true : undefined}
            className={fieldClass}
          />
        </div>
        {plan.kind === 'weekly' ? (
          <div>
            <label htmlFor={weeksId} className="block text-sm font-medium text-slate-800">
              <Trans>Number of sessions</Trans>
            </label>
            <input
              id={weeksId}
              type="number"
              name="weeks"
              inputMode="numeric"
              min={min}
              max={max}
              value={plan.weeks}
              onChange={(event) => change({ weeks: event.target.value })}
              aria-invalid={weeksProblem ? true : undefined}
              aria-describedby={weeksProblem ? weeksProblem.describedBy : `${weeksId}-hint`}
              className={fieldClass}
            />
            <FieldProblemLine id={`${weeksId}-problem`} problem={weeksProblem} />
            <p id={`${weeksId}-hint`} className="mt-1 text-sm text-slate-600">
              <Trans>
                {min} to {max}, one a week.
              </Trans>
            </p>
          </div>
        ) : null}
      </div>
      {starts.length > 0 ? <SessionsPreview starts={starts} minutes={minutes} timeZone={timeZone} /> : null}
    </ChoiceGroup>
  );
}

function SessionsPreview({
  starts,
  minutes,
  timeZone,
}: {
  starts: number[];
  minutes: number;
  timeZone: string;
}) {
  const count = starts.length;
  return (
    <div className="mt-4 rounded-xl bg-slate-50 p-4">
      <p className="text-sm font-semibold text-slate-900">
        <Plural value={count} one="The class meets once:" other="The class meets # times:" />
      </p>
      <ol className="mt-2 space-y-1 text-sm text-slate-800">
        {starts.map((start, index) => (
          <PreviewLine key={start} index={index} start={start} minutes={minutes} timeZone={timeZone} />
        ))}
      </ol>
    </div>
  );
}

function PreviewLine({
  index,
  start,
  minutes,
  timeZone,
}: {
  index: number;
  start: number;
  minutes: number;
  timeZone: string;
}) {
  const problem = useFieldProblem(`session-${index}`, `session-${index}-problem`);
  const number = index + 1;
  return (
    <li className={problem ? 'font-medium text-red-800' : undefined}>
      <Trans>Session {number}:</Trans> <bdi>{lessonTimeLabel(start, start + minutes * 60_000, timeZone)}</bdi>
      {problem ? <span className="sr-only"> {translated(problem.message)}</span> : null}
    </li>
  );
}
