/**
 * /admin/audit: every admin action and every grant from the command line, newest first: who, what,
 * to whom, when and why. Read only; older entries on request (?before=).
 */
import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { paths } from '../../../shared/routes';
import { dateTimeLabel, fetchAudit } from './admin-data';
import { AdminLayout, EmptyState } from './admin-layout';

export function loader({ request }: LoaderFunctionArgs) {
  const before = new URL(request.url).searchParams.get('before') ?? undefined;
  return fetchAudit(before, request.signal);
}

const ACTION_LABELS: Record<string, string> = {
  'admin.granted': 'Made an admin',
  'admin.revoked': 'Admin role taken away',
  'tutor.approved': 'Tutor approved',
  'tutor.declined': 'Tutor declined',
  'report.dismissed': 'Report dismissed',
  'message.hidden': 'Message hidden',
  'review.hidden': 'Review hidden',
  'user.suspended': 'Account suspended',
  'user.suspension_lifted': 'Suspension lifted',
  'user.two_factor_reset': 'Two-factor authentication reset',
  'settings.changed': 'Site settings changed',
  'topup.confirmed': 'Top-up confirmed',
  'topup.rejected': 'Top-up rejected',
  'payout.recorded': 'Payout recorded',
  'refund.recorded': 'Balance refunded',
  'package.refunded': 'Package refunded',
  'lesson.refunded': 'Lesson refunded',
  'account.deleted': 'Account deleted by its owner',
  'backup.downloaded': 'Backup downloaded',
};

export function Component() {
  const { entries, hasMore } = useLoaderData<typeof loader>();
  const last = entries.at(-1);
  return (
    <AdminLayout
      title="Audit log"
      intro="Every decision made here, every backup downloaded, and every admin role given or taken from the command line. Entries cannot be changed or deleted."
    >
      {entries.length === 0 ? (
        <EmptyState>Nothing has been done yet.</EmptyState>
      ) : (
        <ol className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
          {entries.map((entry) => (
            <li key={entry.id} className="grid gap-1 p-4 sm:grid-cols-[11rem_1fr] sm:gap-4">
              <time dateTime={entry.at} className="text-sm text-slate-700">
                {dateTimeLabel(entry.at)}
              </time>
              <div className="min-w-0">
                <p className="font-semibold text-slate-900">{ACTION_LABELS[entry.action] ?? entry.action}</p>
                <p className="break-words text-sm text-slate-700">
                  <span className="font-medium">By</span> {entry.actor}
                  {entry.target ? (
                    <>
                      {' · '}
                      <span className="font-medium">About</span> {entry.target}
                    </>
                  ) : null}
                </p>
                {entry.reason ? (
                  <p className="mt-1 whitespace-pre-line break-words text-sm text-slate-800">
                    <span className="font-medium">Why:</span> {entry.reason}
                  </p>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      )}
      {hasMore && last ? (
        <Link
          to={`${paths.adminAudit}?before=${last.id}`}
          className="mt-4 inline-block font-semibold text-brand-700 underline-offset-2 hover:underline"
        >
          Older entries
        </Link>
      ) : null}
    </AdminLayout>
  );
}
