/**
 * /admin: the console's front page. How many people of each kind, tutors by verification status,
 * lessons this week, open reports and the mail outbox's backlog, each count linking to where it is
 * worked on.
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { listingRuleSentence } from '../../../shared/admin/admin-rules';
import { formatLocale } from '../../../shared/format-locale';
import { paths } from '../../../shared/routes';
import { buttonClass } from '../../components/button';
import { CardSection } from '../../components/card';
import { translated } from '../../lib/i18n';
import { backupUrl, dateTimeLabel, fetchOverview, type Overview } from './admin-data';
import { AdminLayout } from './admin-layout';

export const loader = ({ request }: LoaderFunctionArgs) => fetchOverview(request.signal);

function Counts({ items }: { items: { label: string; value: number; note?: ReactNode }[] }) {
  const numbers = new Intl.NumberFormat(formatLocale());
  return (
    <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
      {items.map((item) => (
        <div key={item.label} className="rounded-xl bg-slate-50 p-3">
          <dt className="text-sm text-slate-700">{item.label}</dt>
          <dd className="mt-1 text-2xl font-bold text-slate-900">{numbers.format(item.value)}</dd>
          {item.note ? <dd className="mt-1 text-xs text-slate-600">{item.note}</dd> : null}
        </div>
      ))}
    </dl>
  );
}

const linkClass = 'text-sm font-semibold text-brand-700 underline-offset-2 hover:underline';

/** The download of a backup, and when the server last took one on its own. */
function Backups({ backups }: { backups: Overview['backups'] }) {
  const { t } = useLingui();
  if (backups.store === 'postgres')
    return (
      <CardSection title={t`Backups`}>
        <p className="text-sm text-slate-700">
          <Trans>
            This server keeps its data in PostgreSQL, which it does not back up itself. Run{' '}
            <code className="rounded bg-slate-100 px-1" dir="ltr">
              npm run backup -- FILE
            </code>{' '}
            (pg_dump) where DATABASE_URL is set, or use your database provider’s backups.
          </Trans>
        </p>
      </CardSection>
    );
  const hours = backups.everyHours;
  const keep = backups.keep;
  return (
    <CardSection title={t`Backups`}>
      <p className="text-sm text-slate-700">
        <Trans>
          One file with the database, the session secret and the other saved files. Keep it somewhere safe: it
          holds everyone’s data.
        </Trans>
      </p>
      <dl className="mt-3 text-sm">
        <dt className="text-slate-700">
          <Trans>Last scheduled backup</Trans>
        </dt>
        <dd className="mt-1 font-semibold text-slate-900">
          {backups.lastScheduledAt ? dateTimeLabel(backups.lastScheduledAt) : t`None yet`}
        </dd>
        <dd className="mt-1 text-xs text-slate-600">
          {hours > 0
            ? t`${plural(hours, { one: `Every hour, keeping the newest ${keep}.`, other: `Every # hours, keeping the newest ${keep}.` })}`
            : t`Scheduled backups are off (BACKUP_EVERY_HOURS=0).`}
        </dd>
      </dl>
      <a href={backupUrl} download className={buttonClass('primary', 'md', 'mt-4')}>
        <Trans>Download a backup</Trans>
      </a>
    </CardSection>
  );
}

export function Component() {
  const overview = useLoaderData<typeof loader>();
  const { users, tutors, lessonsThisWeek, openReports, mailOutbox } = overview;
  const { t } = useLingui();
  const from = dateTimeLabel(lessonsThisWeek.from);
  const to = dateTimeLabel(lessonsThisWeek.to);
  const messages = openReports.messages;
  const reviews = openReports.reviews;
  const messageCount = t`${plural(messages, { one: '# message', other: '# messages' })}`;
  const reviewCount = t`${plural(reviews, { one: '# review', other: '# reviews' })}`;
  const oldest = mailOutbox.oldestWaitingSince ? dateTimeLabel(mailOutbox.oldestWaitingSince) : null;
  return (
    <AdminLayout
      title={t`Overview`}
      intro={t`Tutorlane at a glance: who is here, what waits for a decision, and whether mail goes out.`}
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <CardSection title={t`People`}>
          <Counts
            items={[
              { label: t`Students`, value: users.students },
              { label: t`Tutors`, value: users.tutors },
              { label: t`Admins`, value: users.admins },
              { label: t`Suspended`, value: users.suspended },
            ]}
          />
        </CardSection>
        <CardSection
          title={t`Tutors`}
          action={
            <Link to={paths.adminVerifications} className={linkClass}>
              <Trans>Review verifications</Trans>
            </Link>
          }
        >
          <Counts
            items={[
              { label: t`Listed`, value: tutors.listed },
              { label: t`Profile incomplete`, value: tutors.incomplete },
              { label: t`Waiting for review`, value: tutors.waiting },
              { label: t`Verified`, value: tutors.approved },
            ]}
          />
          <p className="mt-3 text-sm text-slate-700">
            {translated(listingRuleSentence(overview.settings.requireTutorApproval))}
          </p>
        </CardSection>
        <CardSection title={t`Lessons this week`}>
          <Counts
            items={[
              { label: t`Booked`, value: lessonsThisWeek.booked },
              { label: t`Requested`, value: lessonsThisWeek.requested },
              { label: t`Cancelled`, value: lessonsThisWeek.cancelled },
            ]}
          />
          <p className="mt-3 text-sm text-slate-700">
            <Trans>
              From {from} to {to}.
            </Trans>
          </p>
        </CardSection>
        <CardSection
          title={t`Waiting for you`}
          action={
            <Link to={paths.adminReports} className={linkClass}>
              <Trans>Open the reports</Trans>
            </Link>
          }
        >
          <Counts
            items={[
              {
                label: t`Open reports`,
                value: openReports.total,
                note: t`${messageCount}, ${reviewCount}`,
              },
              {
                label: t`Mail waiting`,
                value: mailOutbox.waiting,
                note: oldest ? t`oldest since ${oldest}` : t`nothing waiting`,
              },
              { label: t`Mail given up`, value: mailOutbox.failed },
              {
                label: t`Contact messages`,
                value: overview.contactMessages.length,
                note: (
                  <Link to={paths.adminContact} className="underline">
                    <Trans>Read them</Trans>
                  </Link>
                ),
              },
            ]}
          />
        </CardSection>
        <Backups backups={overview.backups} />
      </div>
    </AdminLayout>
  );
}
