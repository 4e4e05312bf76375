/**
 * The site settings' subject catalogue, by category: a subject added to a category, retired (kept on
 * the profiles that list them, offered to nobody new) and restored.
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { SUBJECT_CATEGORIES } from '../../../shared/constants';
import { MAX_SUBJECT_NAME_LENGTH } from '../../../shared/tutor-catalog';
import { Button } from '../../components/button';
import { CardSection } from '../../components/card';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { SelectField, TextField } from '../../components/text-field';
import { useApiAction } from '../../lib/api-action';
import type { FormAnswer } from '../../lib/forms';
import { translated } from '../../lib/i18n';
import { reloadPublicConfig } from '../../lib/public-config';
import { type AdminSettings, changeSettings } from './admin-data';
import { EmptyState } from './admin-layout';

type Subject = AdminSettings['subjects'][number];

/** The catalogue by category: add a subject, retire one, restore a retired one. */
export function Catalogue({ subjects }: { subjects: Subject[] }) {
  const { busy, problem, run } = useApiAction();
  const [done, setDone] = useState<string | null>(null);
  const status = useRef<HTMLDivElement>(null);
  const { t } = useLingui();

  // The button pressed moves to the other list (or away): the focus goes to what happened instead.
  useEffect(() => {
    if (done || problem) status.current?.focus();
  }, [done, problem]);

  async function change(subject: Subject, retire: boolean) {
    setDone(null);
    const went = await run(async () => {
      await changeSettings(
        retire
          ? { subjects: { retire: [subject.name] } }
          : { subjects: { add: [{ category: subject.category, name: subject.name }] } },
      );
      await reloadPublicConfig().catch(() => {});
    });
    const name = subject.name;
    const tutors = subject.tutors;
    const category = translated(subject.category);
    if (went)
      setDone(
        retire
          ? t`${plural(tutors, {
              0: `${name} is retired: nobody teaches it, and nobody can choose it now.`,
              one: `${name} is retired: the # tutor who teaches it keeps it; nobody else can choose it.`,
              other: `${name} is retired: the # tutors who teach it keep it; nobody else can choose it.`,
            })}`
          : t`${name} is offered again in ${category}.`,
      );
  }

  return (
    <CardSection title={t`Subject catalogue`}>
      <p className="-mt-2 mb-4 text-sm text-slate-700">
        <Trans>
          Tutors choose their subjects from this list, and students search by them. A retired subject stays on
          the profiles that have it (shown, searched and booked there), but nobody else can choose it.
        </Trans>
      </p>
      <AddSubjectForm />
      <div ref={status} tabIndex={-1} className="mt-6 focus:outline-none">
        {problem ? (
          <ErrorMessage>{problem}</ErrorMessage>
        ) : done ? (
          <StatusMessage>{done}</StatusMessage>
        ) : null}
      </div>
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        {SUBJECT_CATEGORIES.map((category) => (
          <CategorySubjects
            key={category}
            category={category}
            subjects={subjects.filter((subject) => subject.category === category)}
            busy={busy}
            onChange={change}
          />
        ))}
      </div>
    </CardSection>
  );
}

function CategorySubjects({
  category,
  subjects,
  busy,
  onChange,
}: {
  category: string;
  subjects: Subject[];
  busy: boolean;
  onChange: (subject: Subject, retire: boolean) => void;
}) {
  const headingId = useId();
  const offered = subjects.filter((subject) => !subject.retired);
  const retired = subjects.filter((subject) => subject.retired);
  const name = translated(category);
  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-xl border border-slate-200 p-4">
      <h3 id={headingId} className="font-semibold text-slate-900">
        {name}
      </h3>
      {offered.length === 0 ? (
        <div className="mt-3">
          <EmptyState>
            <Trans>No subject is offered in {name}.</Trans>
          </EmptyState>
        </div>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">
          {offered.map((subject) => (
            <SubjectRow key={subject.name} subject={subject} busy={busy} onChange={onChange} />
          ))}
        </ul>
      )}
      {retired.length > 0 ? (
        <>
          <h4 className="mt-4 text-sm font-semibold text-slate-700">
            <Trans>Retired</Trans>
          </h4>
          <ul className="mt-1 divide-y divide-slate-100">
            {retired.map((subject) => (
              <SubjectRow key={subject.name} subject={subject} busy={busy} onChange={onChange} />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function SubjectRow({
  subject,
  busy,
  onChange,
}: {
  subject: Subject;
  busy: boolean;
  onChange: (subject: Subject, retire: boolean) => void;
}) {
  const { t } = useLingui();
  const tutors = subject.tutors;
  return (
    <li className="flex items-center justify-between gap-3 py-2">
      <span className="min-w-0 break-words text-sm">
        <span className={subject.retired ? 'text-slate-700' : 'font-medium text-slate-900'}>
          {subject.name}
        </span>
        <span className="block text-xs text-slate-600">
          {t`${plural(tutors, { one: '# tutor', other: '# tutors' })}`}
        </span>
      </span>
      <Button
        variant="secondary"
        className="shrink-0"
        aria-disabled={busy || undefined}
        onClick={() => {
          if (!busy) onChange(subject, !subject.retired);
        }}
      >
        {subject.retired ? t`Restore` : t`Retire`}
        <span className="sr-only"> {subject.name}</span>
      </Button>
    </li>
  );
}

function AddSubjectForm() {
  const fetcher = useFetcher<FormAnswer>();
  const form = useRef<HTMLFormElement>(null);
  const { t } = useLingui();

  // Added: the name is cleared for the next one, the category kept.
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data?.done || !form.current) return;
    const name = form.current.elements.namedItem('name');
    if (name instanceof HTMLInputElement) name.value = '';
  }, [fetcher.state, fetcher.data]);

  return (
    <ActionForm fetcher={fetcher} formRef={form} className="space-y-4 rounded-xl bg-slate-50 p-4">
      <input type="hidden" name="intent" value="add-subject" />
      <FormAnswerMessage />
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end">
        <SelectField label={t`Category`} name="category" defaultValue={SUBJECT_CATEGORIES[0]}>
          {SUBJECT_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {translated(category)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t`New subject`}
          name="name"
          maxLength={MAX_SUBJECT_NAME_LENGTH}
          autoComplete="off"
        />
        <SubmitButton busyLabel={t`Adding…`}>
          <Trans>Add subject</Trans>
        </SubmitButton>
      </div>
      <p className="text-sm text-slate-600">
        <Trans>Adding a retired subject to its category offers it again.</Trans>
      </p>
    </ActionForm>
  );
}
