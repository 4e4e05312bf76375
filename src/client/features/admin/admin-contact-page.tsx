/**
 * /admin/contact: the contact form's messages, newest first, each with the state of its forward to
 * the support address (forwarded, waiting in the outbox, or given up).
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { CONTACT_SUBJECTS } from '../../../shared/constants';
import { translated } from '../../lib/i18n';
import { dateTimeLabel, fetchOverview, type Overview } from './admin-data';
import { AdminLayout, EmptyState } from './admin-layout';

export const loader = ({ request }: LoaderFunctionArgs) => fetchOverview(request.signal);

type ContactState = Overview['contactMessages'][number]['state'];

const STATE_LABELS: Record<ContactState, { label: MessageDescriptor; className: string }> = {
  forwarded: { label: msg`Forwarded to support`, className: 'bg-emerald-50 text-emerald-800' },
  waiting: { label: msg`Waiting to be forwarded`, className: 'bg-amber-50 text-amber-900' },
  failed: { label: msg`Forwarding failed`, className: 'bg-red-50 text-red-800' },
  unknown: { label: msg`Stored`, className: 'bg-slate-100 text-slate-800' },
};

export function Component() {
  const { contactMessages } = useLoaderData<typeof loader>();
  const { t } = useLingui();
  return (
    <AdminLayout
      title={t`Contact messages`}
      intro={t`What visitors wrote through the contact form, newest first. Each is also forwarded by mail to the support address; answer them from there.`}
    >
      {contactMessages.length === 0 ? (
        <EmptyState>
          <Trans>No contact messages yet.</Trans>
        </EmptyState>
      ) : (
        <ul className="space-y-4">
          {contactMessages.map((message) => {
            const state = STATE_LABELS[message.state];
            const known = CONTACT_SUBJECTS.find((s) => s.value === message.subject)?.label;
            const subject = known ? translated(known) : message.subject;
            const name = message.name;
            return (
              <li key={message.id}>
                <article
                  aria-label={t`${subject} from ${name}`}
                  className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
                >
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h2 className="font-semibold text-slate-900">
                      <Trans>
                        {subject} <span className="font-normal text-slate-700">from {name}</span>
                      </Trans>
                    </h2>
                    <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${state.className}`}>
                      {t(state.label)}
                    </span>
                  </div>
                  <p className="mt-1 break-all text-sm text-slate-700">
                    <a href={`mailto:${message.email}`} className="text-brand-700 underline">
                      {message.email}
                    </a>{' '}
                    · <time dateTime={message.receivedAt}>{dateTimeLabel(message.receivedAt)}</time>
                  </p>
                  <p className="mt-3 whitespace-pre-line break-words text-slate-800">{message.message}</p>
                </article>
              </li>
            );
          })}
        </ul>
      )}
    </AdminLayout>
  );
}
