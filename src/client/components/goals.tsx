/**
 * A student's learning goals: each with a progress bar (the share of its milestones done) and its
 * milestones as checkboxes, which the student and their tutors tick; either may add a milestone.
 * Every change goes to the server and the page's data is read again, so the bars, the
 * achievements and the goal's completion always show what the server holds.
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { InferResponseType } from 'hono/client';
import { type FormEvent, useId, useOptimistic, useState, useTransition } from 'react';
import {
  goalShare,
  MAX_GOAL_TITLE_LENGTH,
  MAX_MILESTONE_TITLE_LENGTH,
} from '../../shared/progress/progress-rules';
import { api, request } from '../lib/api';
import { useApiAction } from '../lib/api-action';
import { translated } from '../lib/i18n';
import { usePublicConfig } from '../lib/public-config';
import { calendarDateLabel } from '../lib/time-labels';
import { Button } from './button';
import { ErrorMessage, StatusMessage } from './messages';
import { SelectField, TextArea, TextField } from './text-field';

export type Goal = InferResponseType<(typeof api.goals)['$post'], 201>;

/** `editable`: the student's own list, where a goal's title, subject and date can be changed. */
export function GoalList({
  goals,
  empty,
  editable = false,
}: {
  goals: Goal[];
  empty: string;
  editable?: boolean;
}) {
  if (goals.length === 0) return <p className="text-sm text-slate-700">{translated(empty)}</p>;
  return (
    <ul className="space-y-6">
      {goals.map((goal) => (
        <GoalItem key={goal.id} goal={goal} editable={editable} />
      ))}
    </ul>
  );
}

function GoalItem({ goal, editable }: { goal: Goal; editable: boolean }) {
  const { t } = useLingui();
  const { title, done, total } = goal;
  const date = goal.targetDate ? calendarDateLabel(goal.targetDate) : null;
  const [editing, setEditing] = useState(false);
  const percent = Math.round(goalShare(goal.milestones) * 100);
  const headingId = useId();

  return (
    <li aria-labelledby={headingId}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 id={headingId} className="font-semibold text-slate-900 wrap-break-word">
          {goal.title}
        </h3>
        <p className="text-sm text-slate-600">
          {translated(goal.subject)}
          {date ? (
            <>
              {' · '}
              <Trans>by {date}</Trans>
            </>
          ) : null}
          {editable && !editing ? (
            <button
              type="button"
              onClick={() => setEditing(true)}
              aria-label={t`Edit the goal ${title}`}
              className="ms-3 font-semibold text-brand-700 underline-offset-2 hover:underline"
            >
              <Trans>Edit</Trans>
            </button>
          ) : null}
        </p>
      </div>
      {editing ? <EditGoal goal={goal} onDone={() => setEditing(false)} /> : null}
      <div className="mt-2 flex items-center gap-3">
        <div
          role="progressbar"
          aria-label={t`Progress on ${title}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={t`${plural(total, { one: `${done} of # milestone done`, other: `${done} of # milestones done` })}`}
          className="h-2.5 flex-1 rounded-full bg-slate-100"
        >
          <div className="h-2.5 rounded-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
        </div>
        <span className="text-sm text-slate-700">
          {goal.completedAt ? (
            <Trans>Reached</Trans>
          ) : (
            <Trans>
              {done} of {total}
            </Trans>
          )}
        </span>
      </div>
      {goal.milestones.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          <Trans>No milestones yet: add the steps on the way.</Trans>
        </p>
      ) : (
        <ul className="mt-3 space-y-1.5">
          {goal.milestones.map((milestone) => (
            <MilestoneItem key={milestone.id} milestone={milestone} />
          ))}
        </ul>
      )}
      <AddMilestone goal={goal} />
    </li>
  );
}

/**
 * One milestone's box. It shows its new state at once, while the server stores it. The tick runs
 * as a transition, and the router draws the data it reads again as a transition too, so React
 * shows both together when the call ends: the box never falls back to the old state for a frame
 * before the new data is drawn. A failure puts the box back and says why under it.
 */
function MilestoneItem({ milestone }: { milestone: Goal['milestones'][number] }) {
  const { problem, run } = useApiAction();
  const [checked, setChecked] = useOptimistic(milestone.done);
  const [saving, startSaving] = useTransition();

  function tick(done: boolean) {
    startSaving(async () => {
      setChecked(done);
      await run(() => request(api.milestones[':id'].$patch({ param: { id: milestone.id }, json: { done } })));
    });
  }

  return (
    <li className="flex flex-wrap items-center gap-x-2">
      <label className="flex min-h-8 cursor-pointer items-center gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          className="size-4"
          checked={checked}
          aria-busy={saving}
          onChange={(event) => tick(event.target.checked)}
        />
        <span className={milestone.done ? 'line-through decoration-slate-400' : ''}>{milestone.title}</span>
      </label>
      {milestone.done && milestone.doneBy ? <TickedBy name={milestone.doneBy} /> : null}
      {problem ? (
        <div className="w-full">
          <ErrorMessage>{problem}</ErrorMessage>
        </div>
      ) : null}
    </li>
  );
}

/** Who ticked a milestone: a person's name. */
function TickedBy({ name }: { name: string }) {
  return (
    <span className="text-xs text-slate-600">
      <Trans>ticked by {name}</Trans>
    </span>
  );
}

function AddMilestone({ goal }: { goal: Goal }) {
  const { t } = useLingui();
  const goalTitle = goal.title;
  const [title, setTitle] = useState('');
  const { busy, problem, run } = useApiAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (
      await run(() => request(api.goals[':id'].milestones.$post({ param: { id: goal.id }, json: { title } })))
    )
      setTitle('');
  }

  return (
    <form onSubmit={submit} className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-end">
      <TextField
        label={t`New milestone for ${goalTitle}`}
        className="min-w-0 flex-1 [&_label]:sr-only"
        placeholder={t`Add a milestone`}
        value={title}
        onChange={(event) => setTitle(event.target.value)}
        maxLength={MAX_MILESTONE_TITLE_LENGTH}
      />
      <Button type="submit" variant="secondary" busy={busy}>
        <Trans>Add milestone</Trans>
      </Button>
      {problem ? (
        <div className="w-full">
          <ErrorMessage>{problem}</ErrorMessage>
        </div>
      ) : null}
    </form>
  );
}

interface GoalFieldValues {
  title: string;
  subject: string;
  /** "YYYY-MM-DD", or empty for none. */
  targetDate: string;
}

const NO_GOAL: GoalFieldValues = { title: '', subject: '', targetDate: '' };

/** What a goal is: its title, subject and date, as a new goal and an edited one both ask. */
function GoalFields({
  values,
  onChange,
}: {
  values: GoalFieldValues;
  onChange: (values: GoalFieldValues) => void;
}) {
  const { t } = useLingui();
  const set = (field: keyof GoalFieldValues) => (event: { target: { value: string } }) =>
    onChange({ ...values, [field]: event.target.value });
  // The catalogue in effect; retired subjects too, as tutors who kept them still teach them.
  const catalog = usePublicConfig()?.subjects ?? [];
  const known = catalog.some((entry) => [...entry.offered, ...entry.retired].includes(values.subject));
  return (
    <>
      <TextField
        label={t`Goal`}
        hint={t`What do you want to reach?`}
        value={values.title}
        onChange={set('title')}
        maxLength={MAX_GOAL_TITLE_LENGTH}
        required
      />
      <SelectField label={t`Subject`} value={values.subject} onChange={set('subject')} required>
        <option value="">{t`Choose a subject`}</option>
        {values.subject && !known ? <option value={values.subject}>{values.subject}</option> : null}
        {catalog.map(({ category, offered, retired }) => (
          <optgroup key={category} label={translated(category)}>
            {[...offered, ...retired].map((name) => (
              <option key={name} value={name}>
                {translated(name)}
              </option>
            ))}
          </optgroup>
        ))}
      </SelectField>
      <TextField
        label={t`Target date (optional)`}
        type="date"
        value={values.targetDate}
        onChange={set('targetDate')}
      />
    </>
  );
}

/** The student changes a goal's title, subject or date (an empty date removes it). */
function EditGoal({ goal, onDone }: { goal: Goal; onDone: () => void }) {
  const [fields, setFields] = useState<GoalFieldValues>({
    title: goal.title,
    subject: goal.subject,
    targetDate: goal.targetDate ?? '',
  });
  const { busy, problem, run } = useApiAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const { title, subject, targetDate } = fields;
    const saved = await run(() =>
      request(
        api.goals[':id'].$patch({
          param: { id: goal.id },
          json: { title, subject, targetDate: targetDate === '' ? null : targetDate },
        }),
      ),
    );
    if (saved) onDone();
  }

  return (
    <form onSubmit={submit} className="mt-3 grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-3">
      {problem ? (
        <div className="sm:col-span-3">
          <ErrorMessage>{problem}</ErrorMessage>
        </div>
      ) : null}
      <GoalFields values={fields} onChange={setFields} />
      <div className="flex flex-wrap gap-3 sm:col-span-3">
        <Button type="submit" busy={busy}>
          <Trans>Save goal</Trans>
        </Button>
        <Button type="button" variant="secondary" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}

/**
 * A new goal: a subject, a title, an optional date, and the first milestones. A student's own, or,
 * with `studentId`, a parent's for one of their children ("Add a goal for Emma").
 */
export function NewGoalForm({ studentId, label }: { studentId?: string; label?: string } = {}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState<GoalFieldValues>(NO_GOAL);
  const [milestones, setMilestones] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const { busy, problem, run } = useApiAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const { title, subject, targetDate } = fields;
    const saved = await run(() =>
      request(
        api.goals.$post({
          json: {
            subject,
            title,
            ...(studentId ? { studentId } : {}),
            ...(targetDate ? { targetDate } : {}),
            milestones: milestones
              .split('\n')
              .map((line) => line.trim())
              .filter(Boolean),
          },
        }),
      ),
    );
    if (!saved) return;
    const goalTitle = title.trim();
    setDone(t`Your goal "${goalTitle}" is saved.`);
    setFields(NO_GOAL);
    setMilestones('');
    setOpen(false);
  }

  return (
    <div className="mt-6 border-t border-slate-100 pt-4">
      {done ? <StatusMessage>{done}</StatusMessage> : null}
      {open ? (
        <form onSubmit={submit} className="mt-2 grid gap-4 sm:grid-cols-2">
          {problem ? (
            <div className="sm:col-span-2">
              <ErrorMessage>{problem}</ErrorMessage>
            </div>
          ) : null}
          <GoalFields values={fields} onChange={setFields} />
          <TextArea
            label={t`Milestones (optional)`}
            hint={t`One per line: the steps on the way.`}
            rows={3}
            value={milestones}
            onChange={(event) => setMilestones(event.target.value)}
          />
          <div className="flex flex-wrap gap-3 sm:col-span-2">
            <Button type="submit" busy={busy}>
              <Trans>Save goal</Trans>
            </Button>
            <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
              <Trans>Cancel</Trans>
            </Button>
          </div>
        </form>
      ) : (
        <Button
          type="button"
          variant="secondary"
          className="mt-3"
          onClick={() => {
            setDone(null);
            setOpen(true);
          }}
        >
          {label ?? <Trans>Add a goal</Trans>}
        </Button>
      )}
    </div>
  );
}
