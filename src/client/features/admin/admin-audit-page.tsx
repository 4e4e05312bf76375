/**
 * /admin/audit: every admin action and every grant from the command line, newest first: who, what,
 * to whom, when and why. Read only; older entries on request (?before=).
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { COMMAND_LINE_ACTOR } from '../../../shared/admin/admin-rules';
import { paths } from '../../../shared/routes';
import { dateTimeLabel, fetchAudit } from './admin-data';
import { AdminLayout, EmptyState } from './admin-layout';

export function loader({ request }: LoaderFunctionArgs) {
  const before = new URL(request.url).searchParams.get('before') ?? undefined;
  return fetchAudit(before, request.signal);
}

const ACTION_LABELS: Record<string, MessageDescriptor> = {
  'admin.granted': msg`Made an admin`,
  'admin.revoked': msg`Admin role taken away`,
  'tutor.approved': msg`Tutor approved`,
  'tutor.declined': msg`Tutor declined`,
  'report.dismissed': msg`Report dismissed`,
  'message.hidden': msg`Message hidden`,
  'review.hidden': msg`Review hidden`,
  'user.suspended': msg`Account suspended`,
  'user.suspension_lifted': msg`Suspension lifted`,
  'user.two_factor_reset': msg`Two-factor authentication reset`,
  'settings.changed': msg`Site settings changed`,
  'topup.confirmed': msg`Top-up confirmed`,
  'topup.rejected': msg`Top-up rejected`,
  'payout.recorded': msg`Payout recorded`,
  'refund.recorded': msg`Balance refunded`,
  'package.refunded': msg`Package refunded`,
  'lesson.refunded': msg`Lesson refunded`,
  'class.cancelled': msg`Class cancelled`,
  'class.student_removed': msg`Student removed from a class`,
  'family.unlinked': msg`Family unlinked`,
  'account.deleted': msg`Account deleted by its owner`,
  'backup.downloaded': msg`Backup downloaded`,
};

export function Component() {
  const { entries, hasMore } = useLoaderData<typeof loader>();
  const last = entries.at(-1);
  const { t } = useLingui();
  const actionLabel = (action: string) => {
    const label = ACTION_LABELS[action];
    return label ? t(label) : action;
  };
  return (
    <AdminLayout
      title={t`Audit log`}
      intro={t`Every decision made here, every backup downloaded, and every admin role given or taken from the command line. Entries cannot be changed or deleted.`}
    >
      {entries.length === 0 ? (
        <EmptyState>
          <Trans>Nothing has been done yet.</Trans>
        </EmptyState>
      ) : (
        <ol className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
          {entries.map((entry) => {
            const actor = entry.actor === COMMAND_LINE_ACTOR ? t`command line` : entry.actor;
            const target = entry.target;
            return (
              <li key={entry.id} className="grid gap-1 p-4 sm:grid-cols-[11rem_1fr] sm:gap-4">
                <time dateTime={entry.at} className="text-sm text-slate-700">
                  {dateTimeLabel(entry.at)}
                </time>
                <div className="min-w-0">
                  <p className="font-semibold text-slate-900">{actionLabel(entry.action)}</p>
                  <p className="break-words text-sm text-slate-700">
                    <Trans>
                      <span className="font-medium">By</span> <bdi>{actor}</bdi>
                    </Trans>
                    {entry.target ? (
                      <>
                        {' · '}
                        <Trans>
                          <span className="font-medium">About</span> <bdi>{target}</bdi>
                        </Trans>
                      </>
                    ) : null}
                  </p>
                  {entry.reason ? (
                    <p className="mt-1 whitespace-pre-line break-words text-sm text-slate-800">
                      <span className="font-medium">
                        <Trans>Why:</Trans>
                      </span>{' '}
                      {entry.reason}
                    </p>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {hasMore && last ? (
        <Link
          to={`${paths.adminAudit}?before=${last.id}`}
          className="mt-4 inline-block font-semibold text-brand-700 underline-offset-2 hover:underline"
        >
          <Trans>Older entries</Trans>
        </Link>
      ) : null}
    </AdminLayout>
  );
}
