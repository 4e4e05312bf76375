/**
 * /admin/reports: the moderation queue. Reported messages and reviews, oldest first, each with the
 * reporter's reason and the text as it was when reported; dismiss the report, hide the message or
 * review (its author is told by mail), or suspend the author (they can no longer sign in, leave the
 * search, and their upcoming lessons are cancelled).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { StatusMessage } from '../../components/messages';
import { dateTimeLabel, fetchReports, type Report, settleReport, suspendUser } from './admin-data';
import { AdminLayout, EmptyState } from './admin-layout';
import { DecisionPanel } from './decision-panel';

export const loader = ({ request }: LoaderFunctionArgs) => fetchReports(request.signal);

function ReportCard({ report, onDone }: { report: Report; onDone: (message: string) => void }) {
  const { t } = useLingui();
  const message = report.kind === 'message';
  const author = report.author.displayName;
  const tutor = report.tutorName;
  const when = dateTimeLabel(report.reportedAt);
  const reporter = report.reporter.displayName;
  const heading = message
    ? t`A message by ${author}`
    : tutor
      ? t`A review by ${author} on ${tutor}’s page`
      : t`A review by ${author}`;
  return (
    <article
      aria-label={message ? t`Report of a message by ${author}` : t`Report of a review by ${author}`}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold text-slate-900">{heading}</h2>
        <time dateTime={report.reportedAt} className="text-sm text-slate-700">
          <Trans>Reported {when}</Trans>
        </time>
      </div>
      <p className="mt-1 break-all text-sm text-slate-700">
        {report.author.email}
        {report.author.suspended ? ` · ${t`suspended`}` : ''}
        {report.author.admin ? ` · ${t`admin`}` : ''}
      </p>
      <figure className="mt-3">
        <figcaption className="text-sm font-medium text-slate-900">
          {message ? t`The message as it was reported` : t`The review as it was reported`}
        </figcaption>
        <blockquote className="mt-1 whitespace-pre-line break-words rounded-lg border-s-4 border-slate-300 bg-slate-50 px-3 py-2 text-slate-900">
          {report.reportedText}
        </blockquote>
      </figure>
      <p className="mt-3 text-sm text-slate-800">
        <span className="font-medium text-slate-900">
          <Trans>{reporter}’s reason:</Trans>
        </span>{' '}
        {report.reason}
      </p>
      {report.hidden ? (
        <p className="mt-2 text-sm font-medium text-slate-700">
          {message ? t`This message is already hidden.` : t`This review is already hidden.`}
        </p>
      ) : null}
      <DecisionPanel
        noteLabel={t`Note or reason`}
        noteHint={t`Hiding mails the note to the author; suspending needs a reason, which ${author} is told when signing in.`}
        onDone={onDone}
        decisions={[
          {
            label: t`Dismiss`,
            name: message
              ? t`Dismiss the report of ${author}’s message`
              : t`Dismiss the report of ${author}’s review`,
            variant: 'secondary',
            run: (note) => settleReport(report.id, 'dismiss', note),
            done: t`The report was dismissed.`,
          },
          ...(report.hidden
            ? []
            : [
                {
                  label: message ? t`Hide message` : t`Hide review`,
                  name: message ? t`Hide message by ${author}` : t`Hide review by ${author}`,
                  variant: 'primary' as const,
                  run: (note: string) => settleReport(report.id, 'hide', note),
                  done: message
                    ? t`The message is hidden; ${author} was told by mail.`
                    : t`The review is hidden; ${author} was told by mail.`,
                },
              ]),
          ...(report.author.suspended || report.author.admin
            ? []
            : [
                {
                  label: t`Suspend author`,
                  name: t`Suspend author ${author}`,
                  variant: 'danger' as const,
                  needsNote: t`Please give a reason: the person is told it when they try to sign in.`,
                  run: (note: string) => suspendUser(report.author.id, note),
                  done: t`${author} is suspended: signed out, out of the search, upcoming lessons cancelled.`,
                },
              ]),
        ]}
      />
    </article>
  );
}

export function Component() {
  const { reports } = useLoaderData<typeof loader>();
  const [done, setDone] = useState<string | null>(null);
  const { t } = useLingui();
  return (
    <AdminLayout
      title={t`Reports`}
      intro={t`Reported messages and reviews, oldest first. Dismiss a report, hide what it is about, or suspend its author.`}
    >
      {done ? (
        <div className="mb-4">
          <StatusMessage>{done}</StatusMessage>
        </div>
      ) : null}
      {reports.length === 0 ? (
        <EmptyState>
          <Trans>No open reports. Reported messages and reviews appear here.</Trans>
        </EmptyState>
      ) : (
        <ol className="space-y-4" aria-label={t`Open reports`}>
          {reports.map((report) => (
            <li key={report.id}>
              <ReportCard report={report} onDone={setDone} />
            </li>
          ))}
        </ol>
      )}
    </AdminLayout>
  );
}
