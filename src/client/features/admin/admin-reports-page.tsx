/**
 * /admin/reports: the moderation queue. Reported messages and reviews, oldest first, each with the
 * reporter's reason and the text as it was when reported; dismiss the report, hide the message or
 * review (its author is told by mail), or suspend the author (they can no longer sign in, leave the
 * search, and their upcoming lessons are cancelled).
 */
import { useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { StatusMessage } from '../../components/messages';
import { dateTimeLabel, fetchReports, type Report, settleReport, suspendUser } from './admin-data';
import { AdminLayout, EmptyState } from './admin-layout';
import { DecisionPanel } from './decision-panel';

export const loader = ({ request }: LoaderFunctionArgs) => fetchReports(request.signal);

function ReportCard({ report, onDone }: { report: Report; onDone: (message: string) => void }) {
  const what = report.kind === 'message' ? 'message' : 'review';
  const where = report.kind === 'review' && report.tutorName ? ` on ${report.tutorName}’s page` : '';
  return (
    <article
      aria-label={`Report of a ${what} by ${report.author.displayName}`}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold text-slate-900">
          A {what} by {report.author.displayName}
          {where}
        </h2>
        <time dateTime={report.reportedAt} className="text-sm text-slate-700">
          Reported {dateTimeLabel(report.reportedAt)}
        </time>
      </div>
      <p className="mt-1 break-all text-sm text-slate-700">
        {report.author.email}
        {report.author.suspended ? ' · suspended' : ''}
        {report.author.admin ? ' · admin' : ''}
      </p>
      <figure className="mt-3">
        <figcaption className="text-sm font-medium text-slate-900">The {what} as it was reported</figcaption>
        <blockquote className="mt-1 whitespace-pre-line break-words rounded-lg border-s-4 border-slate-300 bg-slate-50 px-3 py-2 text-slate-900">
          {report.reportedText}
        </blockquote>
      </figure>
      <p className="mt-3 text-sm text-slate-800">
        <span className="font-medium text-slate-900">{report.reporter.displayName}’s reason:</span>{' '}
        {report.reason}
      </p>
      {report.hidden ? (
        <p className="mt-2 text-sm font-medium text-slate-700">This {what} is already hidden.</p>
      ) : null}
      <DecisionPanel
        noteLabel="Note or reason"
        noteHint={`Hiding mails the note to the author; suspending needs a reason, which ${report.author.displayName} is told when signing in.`}
        onDone={onDone}
        decisions={[
          {
            label: 'Dismiss',
            name: `Dismiss the report of ${report.author.displayName}’s ${what}`,
            variant: 'secondary',
            run: (note) => settleReport(report.id, 'dismiss', note),
            done: 'The report was dismissed.',
          },
          ...(report.hidden
            ? []
            : [
                {
                  label: `Hide ${what}`,
                  name: `Hide ${what} by ${report.author.displayName}`,
                  variant: 'primary' as const,
                  run: (note: string) => settleReport(report.id, 'hide', note),
                  done: `The ${what} is hidden; ${report.author.displayName} was told by mail.`,
                },
              ]),
          ...(report.author.suspended || report.author.admin
            ? []
            : [
                {
                  label: 'Suspend author',
                  name: `Suspend author ${report.author.displayName}`,
                  variant: 'danger' as const,
                  needsNote: 'Please give a reason: the person is told it when they try to sign in.',
                  run: (note: string) => suspendUser(report.author.id, note),
                  done: `${report.author.displayName} is suspended: signed out, out of the search, upcoming lessons cancelled.`,
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
  return (
    <AdminLayout
      title="Reports"
      intro="Reported messages and reviews, oldest first. Dismiss a report, hide what it is about, or suspend its author."
    >
      {done ? (
        <div className="mb-4">
          <StatusMessage>{done}</StatusMessage>
        </div>
      ) : null}
      {reports.length === 0 ? (
        <EmptyState>No open reports. Reported messages and reviews appear here.</EmptyState>
      ) : (
        <ol className="space-y-4" aria-label="Open reports">
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
