/**
 * /admin/verifications: tutors who asked for review, oldest request first, each with the profile
 * students see and its history, to approve or decline with a note the tutor receives by mail; and
 * verified tutors whose rate or subjects changed since their approval, to approve again or decline.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { VERIFICATION_LABELS } from '../../../shared/admin/admin-rules';
import { formatLocale } from '../../../shared/format-locale';
import { tutorPath } from '../../../shared/routes';
import { CardSection } from '../../components/card';
import { StatusMessage } from '../../components/messages';
import { i18n, translated } from '../../lib/i18n';
import { dateTimeLabel, decideVerification, fetchVerifications, type VerificationCase } from './admin-data';
import { AdminLayout, EmptyState } from './admin-layout';
import { DecisionPanel } from './decision-panel';

export const loader = ({ request }: LoaderFunctionArgs) => fetchVerifications(request.signal);

const rate = (value: number | null) => (value === null ? i18n._(msg`no rate`) : i18n._(msg`$${value}/hour`));

/** "Algebra, Physics": a list of names, the way the page's language writes one. */
const list = (names: readonly string[]) =>
  new Intl.ListFormat(formatLocale(), { style: 'short', type: 'unit' }).format(names);

const EVENT_LABELS: Record<'requested' | 'approved' | 'declined', MessageDescriptor> = {
  requested: msg`Asked for review`,
  approved: msg`Approved`,
  declined: msg`Declined`,
};

function Changes({ changes }: { changes: NonNullable<VerificationCase['changesSinceApproval']> }) {
  const added = list(changes.subjectsAdded);
  const removed = list(changes.subjectsRemoved);
  return (
    <div className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="font-semibold">
        <Trans>Changed since approval</Trans>
      </p>
      <ul className="mt-1 list-disc ps-5">
        {changes.hourlyRate ? (
          <li>
            <Trans>Rate:</Trans> <bdi>{rate(changes.hourlyRate.before)}</bdi>{' '}
            <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
              →
            </span>
            <span className="sr-only">
              <Trans>to</Trans>
            </span>{' '}
            <bdi>{rate(changes.hourlyRate.after)}</bdi>
          </li>
        ) : null}
        {changes.subjectsAdded.length ? (
          <li>
            <Trans>Subjects added: {added}</Trans>
          </li>
        ) : null}
        {changes.subjectsRemoved.length ? (
          <li>
            <Trans>Subjects removed: {removed}</Trans>
          </li>
        ) : null}
      </ul>
    </div>
  );
}

function CaseCard({ item, onDone }: { item: VerificationCase; onDone: (message: string) => void }) {
  const { profile } = item;
  const { t } = useLingui();
  const name = item.displayName;
  const since = item.requestedAt && item.status === 'requested' ? dateTimeLabel(item.requestedAt) : null;
  const years = profile.yearsExperience;
  const status = translated(VERIFICATION_LABELS[item.status]);
  const historyCount = item.history.length;
  return (
    <article
      aria-label={t`Verification of ${name}`}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="text-lg font-semibold text-slate-900">{item.displayName}</h3>
          <p className="break-all text-sm text-slate-700">{item.email}</p>
        </div>
        <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-800">
          {since ? (
            <Trans>
              {status} since {since}
            </Trans>
          ) : (
            status
          )}
        </span>
      </div>
      <p className="mt-3 font-medium text-slate-900">{profile.headline || t`No headline`}</p>
      <p dir="auto" className="mt-1 whitespace-pre-line break-words text-sm text-slate-800">
        {profile.about}
      </p>
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline font-medium text-slate-900">
            <Trans>Subjects:</Trans>{' '}
          </dt>
          <dd className="inline text-slate-800">{list(profile.subjects) || t`none`}</dd>
        </div>
        <div>
          <dt className="inline font-medium text-slate-900">
            <Trans>Rate:</Trans>{' '}
          </dt>
          <dd className="inline text-slate-800">{rate(profile.hourlyRate)}</dd>
        </div>
        <div>
          <dt className="inline font-medium text-slate-900">
            <Trans>Languages:</Trans>{' '}
          </dt>
          <dd className="inline text-slate-800">{list(profile.languages) || t`none`}</dd>
        </div>
        <div>
          <dt className="inline font-medium text-slate-900">
            <Trans>Experience:</Trans>{' '}
          </dt>
          <dd className="inline text-slate-800">
            {years === null ? t`not said` : t`${plural(years, { one: '# year', other: '# years' })}`}
          </dd>
        </div>
      </dl>
      {profile.published ? (
        <a
          href={tutorPath(item.tutorId)}
          className="mt-2 inline-block text-sm font-semibold text-brand-700 underline"
        >
          <Trans>Open {name}’s public page</Trans>
        </a>
      ) : (
        <p className="mt-2 text-sm text-slate-700">
          <Trans>The profile is not public.</Trans>
        </p>
      )}
      {item.changesSinceApproval ? <Changes changes={item.changesSinceApproval} /> : null}
      {item.history.length ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium text-slate-900">
            <Trans>History ({historyCount})</Trans>
          </summary>
          <ol className="mt-2 space-y-1 text-slate-800">
            {item.history.map((entry) => {
              const event = t(EVENT_LABELS[entry.event]);
              const admin = entry.admin;
              const note = entry.note;
              return (
                <li key={`${entry.at}-${entry.event}`}>
                  <time dateTime={entry.at}>{dateTimeLabel(entry.at)}</time>:{' '}
                  {admin ? t`${event} by ${admin}` : event} (<bdi>{rate(entry.hourlyRate)}</bdi>;{' '}
                  {list(entry.subjects)}){note ? `: ${t`“${note}”`}` : ''}
                </li>
              );
            })}
          </ol>
        </details>
      ) : null}
      <DecisionPanel
        noteLabel={t`Note to ${name}`}
        noteHint={t`Mailed to the tutor with your decision; required to decline.`}
        onDone={onDone}
        decisions={[
          {
            label: t`Approve`,
            name: t`Approve ${name}`,
            variant: 'primary',
            run: (note) => decideVerification(item.tutorId, 'approve', note),
            done: t`${name} is verified; they were told by mail.`,
          },
          {
            label: t`Decline`,
            name: t`Decline ${name}`,
            variant: 'secondary',
            needsNote: t`Please write a note: the tutor needs to know why.`,
            run: (note) => decideVerification(item.tutorId, 'decline', note),
            done: t`${name} was declined; they were told by mail.`,
          },
        ]}
      />
    </article>
  );
}

export function Component() {
  const { waiting, changedSinceApproval } = useLoaderData<typeof loader>();
  const [done, setDone] = useState<string | null>(null);
  const { t } = useLingui();
  return (
    <AdminLayout
      title={t`Verifications`}
      intro={t`Tutors ask for review from their profile. Only approved tutors carry the “Verified tutor” badge.`}
    >
      {done ? (
        <div className="mb-4">
          <StatusMessage>{done}</StatusMessage>
        </div>
      ) : null}
      <div className="space-y-6">
        <CardSection title={t`Waiting for review`}>
          {waiting.length === 0 ? (
            <EmptyState>
              <Trans>No tutor is waiting for review.</Trans>
            </EmptyState>
          ) : (
            <ol className="space-y-4">
              {waiting.map((item) => (
                <li key={item.tutorId}>
                  <CaseCard item={item} onDone={setDone} />
                </li>
              ))}
            </ol>
          )}
        </CardSection>
        <CardSection title={t`Changed since approval`}>
          {changedSinceApproval.length === 0 ? (
            <EmptyState>
              <Trans>No verified tutor has changed their rate or subjects.</Trans>
            </EmptyState>
          ) : (
            <ol className="space-y-4">
              {changedSinceApproval.map((item) => (
                <li key={item.tutorId}>
                  <CaseCard item={item} onDone={setDone} />
                </li>
              ))}
            </ol>
          )}
        </CardSection>
      </div>
    </AdminLayout>
  );
}
