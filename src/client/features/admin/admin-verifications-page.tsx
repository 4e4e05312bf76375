/**
 * /admin/verifications: tutors who asked for review, oldest request first, each with the profile
 * students see and its history, to approve or decline with a note the tutor receives by mail; and
 * verified tutors whose rate or subjects changed since their approval, to approve again or decline.
 */
import { useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { VERIFICATION_LABELS } from '../../../shared/admin/admin-rules';
import { tutorPath } from '../../../shared/routes';
import { CardSection } from '../../components/card';
import { StatusMessage } from '../../components/messages';
import { dateTimeLabel, decideVerification, fetchVerifications, type VerificationCase } from './admin-data';
import { AdminLayout, EmptyState } from './admin-layout';
import { DecisionPanel } from './decision-panel';

export const loader = ({ request }: LoaderFunctionArgs) => fetchVerifications(request.signal);

const rate = (value: number | null) => (value === null ? 'no rate' : `$${value}/hour`);

const EVENT_LABELS = { requested: 'Asked for review', approved: 'Approved', declined: 'Declined' } as const;

function Changes({ changes }: { changes: NonNullable<VerificationCase['changesSinceApproval']> }) {
  return (
    <div className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="font-semibold">Changed since approval</p>
      <ul className="mt-1 list-disc ps-5">
        {changes.hourlyRate ? (
          <li>
            Rate: {rate(changes.hourlyRate.before)} → {rate(changes.hourlyRate.after)}
          </li>
        ) : null}
        {changes.subjectsAdded.length ? <li>Subjects added: {changes.subjectsAdded.join(', ')}</li> : null}
        {changes.subjectsRemoved.length ? (
          <li>Subjects removed: {changes.subjectsRemoved.join(', ')}</li>
        ) : null}
      </ul>
    </div>
  );
}

function CaseCard({ item, onDone }: { item: VerificationCase; onDone: (message: string) => void }) {
  const { profile } = item;
  return (
    <article
      aria-label={`Verification of ${item.displayName}`}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="text-lg font-semibold text-slate-900">{item.displayName}</h3>
          <p className="break-all text-sm text-slate-700">{item.email}</p>
        </div>
        <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-800">
          {VERIFICATION_LABELS[item.status]}
          {item.requestedAt && item.status === 'requested' ? ` since ${dateTimeLabel(item.requestedAt)}` : ''}
        </span>
      </div>
      <p className="mt-3 font-medium text-slate-900">{profile.headline || 'No headline'}</p>
      <p className="mt-1 whitespace-pre-line break-words text-sm text-slate-800">{profile.about}</p>
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline font-medium text-slate-900">Subjects: </dt>
          <dd className="inline text-slate-800">{profile.subjects.join(', ') || 'none'}</dd>
        </div>
        <div>
          <dt className="inline font-medium text-slate-900">Rate: </dt>
          <dd className="inline text-slate-800">{rate(profile.hourlyRate)}</dd>
        </div>
        <div>
          <dt className="inline font-medium text-slate-900">Languages: </dt>
          <dd className="inline text-slate-800">{profile.languages.join(', ') || 'none'}</dd>
        </div>
        <div>
          <dt className="inline font-medium text-slate-900">Experience: </dt>
          <dd className="inline text-slate-800">
            {profile.yearsExperience === null ? 'not said' : `${profile.yearsExperience} years`}
          </dd>
        </div>
      </dl>
      {profile.published ? (
        <a
          href={tutorPath(item.tutorId)}
          className="mt-2 inline-block text-sm font-semibold text-brand-700 underline"
        >
          Open {item.displayName}’s public page
        </a>
      ) : (
        <p className="mt-2 text-sm text-slate-700">The profile is not public.</p>
      )}
      {item.changesSinceApproval ? <Changes changes={item.changesSinceApproval} /> : null}
      {item.history.length ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium text-slate-900">
            History ({item.history.length})
          </summary>
          <ol className="mt-2 space-y-1 text-slate-800">
            {item.history.map((entry) => (
              <li key={`${entry.at}-${entry.event}`}>
                <time dateTime={entry.at}>{dateTimeLabel(entry.at)}</time>: {EVENT_LABELS[entry.event]}
                {entry.admin ? ` by ${entry.admin}` : ''} ({rate(entry.hourlyRate)};{' '}
                {entry.subjects.join(', ')}){entry.note ? `: “${entry.note}”` : ''}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      <DecisionPanel
        noteLabel={`Note to ${item.displayName}`}
        noteHint="Mailed to the tutor with your decision; required to decline."
        onDone={onDone}
        decisions={[
          {
            label: 'Approve',
            name: `Approve ${item.displayName}`,
            variant: 'primary',
            run: (note) => decideVerification(item.tutorId, 'approve', note),
            done: `${item.displayName} is verified; they were told by mail.`,
          },
          {
            label: 'Decline',
            name: `Decline ${item.displayName}`,
            variant: 'secondary',
            needsNote: 'Please write a note: the tutor needs to know why.',
            run: (note) => decideVerification(item.tutorId, 'decline', note),
            done: `${item.displayName} was declined; they were told by mail.`,
          },
        ]}
      />
    </article>
  );
}

export function Component() {
  const { waiting, changedSinceApproval } = useLoaderData<typeof loader>();
  const [done, setDone] = useState<string | null>(null);
  return (
    <AdminLayout
      title="Verifications"
      intro="Tutors ask for review from their profile. Only approved tutors carry the “Verified tutor” badge."
    >
      {done ? (
        <div className="mb-4">
          <StatusMessage>{done}</StatusMessage>
        </div>
      ) : null}
      <div className="space-y-6">
        <CardSection title="Waiting for review">
          {waiting.length === 0 ? (
            <EmptyState>No tutor is waiting for review.</EmptyState>
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
        <CardSection title="Changed since approval">
          {changedSinceApproval.length === 0 ? (
            <EmptyState>No verified tutor has changed their rate or subjects.</EmptyState>
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
