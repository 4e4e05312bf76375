/**
 * /admin: the console's front page. How many people of each kind, tutors by verification status,
 * lessons this week, open reports and the mail outbox's backlog, each count linking to where it is
 * worked on.
 */
import type { ReactNode } from 'react';
import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { listingRuleSentence } from '../../../shared/admin/admin-rules';
import { paths } from '../../../shared/routes';
import { buttonClass } from '../../components/button';
import { CardSection } from '../../components/card';
import { backupUrl, dateTimeLabel, fetchOverview, type Overview } from './admin-data';
import { AdminLayout } from './admin-layout';

export const loader = ({ request }: LoaderFunctionArgs) => fetchOverview(request.signal);

function Counts({ items }: { items: { label: string; value: number; note?: ReactNode }[] }) {
  return (
    <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
      {items.map((item) => (
        <div key={item.label} className="rounded-xl bg-slate-50 p-3">
          <dt className="text-sm text-slate-700">{item.label}</dt>
          <dd className="mt-1 text-2xl font-bold text-slate-900">{item.value.toLocaleString('en-US')}</dd>
          {item.note ? <dd className="mt-1 text-xs text-slate-600">{item.note}</dd> : null}
        </div>
      ))}
    </dl>
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const linkClass = 'text-sm font-semibold text-brand-700 underline-offset-2 hover:underline';

/** The download of a backup, and when the server last took one on its own. */
function Backups({ backups }: { backups: Overview['backups'] }) {
  if (backups.store === 'postgres')
    return (
      <CardSection title="Backups">
        <p className="text-sm text-slate-700">
          This server keeps its data in PostgreSQL, which it does not back up itself. Run{' '}
          <code className="rounded bg-slate-100 px-1">npm run backup -- FILE</code> (pg_dump) where
          DATABASE_URL is set, or use your database provider’s backups.
        </p>
      </CardSection>
    );
  return (
    <CardSection title="Backups">
      <p className="text-sm text-slate-700">
        One file with the database, the session secret and the other saved files. Keep it somewhere safe: it
        holds everyone’s data.
      </p>
      <dl className="mt-3 text-sm">
        <dt className="text-slate-700">Last scheduled backup</dt>
        <dd className="mt-1 font-semibold text-slate-900">
          {backups.lastScheduledAt ? dateTimeLabel(backups.lastScheduledAt) : 'None yet'}
        </dd>
        <dd className="mt-1 text-xs text-slate-600">
          {backups.everyHours > 0
            ? `Every ${plural(backups.everyHours, 'hour')}, keeping the newest ${backups.keep}.`
            : 'Scheduled backups are off (BACKUP_EVERY_HOURS=0).'}
        </dd>
      </dl>
      <a href={backupUrl} download className={buttonClass('primary', 'md', 'mt-4')}>
        Download a backup
      </a>
    </CardSection>
  );
}

export function Component() {
  const overview = useLoaderData<typeof loader>();
  const { users, tutors, lessonsThisWeek, openReports, mailOutbox } = overview;
  return (
    <AdminLayout
      title="Overview"
      intro="Tutorlane at a glance: who is here, what waits for a decision, and whether mail goes out."
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <CardSection title="People">
          <Counts
            items={[
              { label: 'Students', value: users.students },
              { label: 'Tutors', value: users.tutors },
              { label: 'Admins', value: users.admins },
              { label: 'Suspended', value: users.suspended },
            ]}
          />
        </CardSection>
        <CardSection
          title="Tutors"
          action={
            <Link to={paths.adminVerifications} className={linkClass}>
              Review verifications
            </Link>
          }
        >
          <Counts
            items={[
              { label: 'Listed', value: tutors.listed },
              { label: 'Profile incomplete', value: tutors.incomplete },
              { label: 'Waiting for review', value: tutors.waiting },
              { label: 'Verified', value: tutors.approved },
            ]}
          />
          <p className="mt-3 text-sm text-slate-700">
            {listingRuleSentence(overview.settings.requireTutorApproval)}
          </p>
        </CardSection>
        <CardSection title="Lessons this week">
          <Counts
            items={[
              { label: 'Booked', value: lessonsThisWeek.booked },
              { label: 'Requested', value: lessonsThisWeek.requested },
              { label: 'Cancelled', value: lessonsThisWeek.cancelled },
            ]}
          />
          <p className="mt-3 text-sm text-slate-700">
            From {dateTimeLabel(lessonsThisWeek.from)} to {dateTimeLabel(lessonsThisWeek.to)}.
          </p>
        </CardSection>
        <CardSection
          title="Waiting for you"
          action={
            <Link to={paths.adminReports} className={linkClass}>
              Open the reports
            </Link>
          }
        >
          <Counts
            items={[
              {
                label: 'Open reports',
                value: openReports.total,
                note: `${plural(openReports.messages, 'message')}, ${plural(openReports.reviews, 'review')}`,
              },
              {
                label: 'Mail waiting',
                value: mailOutbox.waiting,
                note: mailOutbox.oldestWaitingSince
                  ? `oldest since ${dateTimeLabel(mailOutbox.oldestWaitingSince)}`
                  : 'nothing waiting',
              },
              { label: 'Mail given up', value: mailOutbox.failed },
              {
                label: 'Contact messages',
                value: overview.contactMessages.length,
                note: (
                  <Link to={paths.adminContact} className="underline">
                    Read them
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
