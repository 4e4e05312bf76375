/**
 * /admin/families: every link between a paying parent and a student, the newest first, found by
 * either person's name or email (?search=), and an admin's one way to step in: unlink them, for a
 * reason (a link made by mistake, a parent who lost touch). An unlink ends the link as the
 * parent's removal of the child would, so the dialog says what that does before it is confirmed.
 */
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useId, useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData, useNavigation } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import { paths } from '../../../shared/routes';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { DoneNotice, ErrorMessage, useDoneNotice } from '../../components/messages';
import { Spinner } from '../../components/spinner';
import { TextArea } from '../../components/text-field';
import { ApiError, failureMessage } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { i18n } from '../../lib/i18n';
import { type AdminFamilyLink, dateTimeLabel, fetchFamilyLinks, unlinkFamily } from './admin-data';
import { AdminLayout, AdminSearch, EmptyState } from './admin-layout';

/** As the server takes them (src/server/admin/admin-routes.ts). */
const REASON_LIMIT = 1000;

export async function loader({ request }: LoaderFunctionArgs) {
  const search = (new URL(request.url).searchParams.get('search') ?? '').trim();
  try {
    return { search, links: (await fetchFamilyLinks(search, request.signal)).links, error: null };
  } catch (error) {
    // A search the server refuses (too long, say) is said above the list, not as a broken page.
    if (error instanceof ApiError && error.status === 400)
      return { search, links: [] as AdminFamilyLink[], error: failureMessage(error) };
    throw error;
  }
}

/** A link's key: one paying parent per student, so the pair names it. */
const linkKey = (link: AdminFamilyLink) => `${link.parent.id}/${link.student.id}`;

export function Component() {
  const { search, links, error } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const searching = navigation.state === 'loading' && navigation.location?.pathname === paths.adminFamilies;
  const { done, tell } = useDoneNotice();
  const [unlinking, setUnlinking] = useState<AdminFamilyLink | null>(null);
  const close = (text?: string) => {
    setUnlinking(null);
    if (text) tell(text);
  };
  const count = links.length;
  const { t } = useLingui();
  return (
    <AdminLayout
      title={t`Families`}
      intro={t`Every parent who pays for a student, the newest link first. Unlink them when the link is wrong or must end: what the parent paid for ahead is called off and given back to them.`}
    >
      <div className="space-y-5">
        <AdminSearch
          name={t`Families`}
          label={t`Parent or student`}
          search={search}
          searching={searching}
          allPath={paths.adminFamilies}
        />

        <p aria-live="polite" className="flex min-h-6 items-center gap-2 font-medium text-slate-800">
          {searching ? (
            <>
              <Spinner /> <Trans>Searching…</Trans>
            </>
          ) : error ? null : search ? (
            t`${plural(count, {
              0: `No family links for “${search}”`,
              one: `# family link for “${search}”`,
              other: `# family links for “${search}”`,
            })}`
          ) : (
            t`${plural(count, { 0: 'No family links', one: '# family link', other: '# family links' })}`
          )}
        </p>

        <DoneNotice done={done} />

        {error ? (
          <ErrorMessage>{error}</ErrorMessage>
        ) : count === 0 ? (
          <EmptyState>
            {search
              ? t`No parent or student of a family link matches “${search}”.`
              : t`No parent pays for a student yet.`}
          </EmptyState>
        ) : (
          <ul className="grid gap-4 lg:grid-cols-2">
            {links.map((link) => (
              <LinkCard key={linkKey(link)} link={link} onUnlink={() => setUnlinking(link)} />
            ))}
          </ul>
        )}
      </div>
      {unlinking ? <UnlinkDialog link={unlinking} onClose={close} /> : null}
    </AdminLayout>
  );
}

function LinkCard({ link, onUnlink }: { link: AdminFamilyLink; onUnlink: () => void }) {
  const headingId = useId();
  const { t } = useLingui();
  const student = link.student.displayName;
  const parent = link.parent.displayName;
  const lessonsAhead = link.lessonsAhead;
  return (
    <li>
      <article
        aria-labelledby={headingId}
        className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      >
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 id={headingId} className="min-w-0 font-semibold wrap-break-word text-slate-900">
            {t`${student}, paid for by ${parent}`}
          </h2>
          <span className="inline-block rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700">
            {link.addedByParent ? t`Added by the parent` : t`Invited the parent`}
          </span>
        </div>
        <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2">
          <div className="min-w-0">
            <dt className="font-medium text-slate-600">
              <Trans>Parent</Trans>
            </dt>
            <dd className="text-slate-900">{parent}</dd>
            <dd className="break-all text-slate-700">{link.parent.email}</dd>
          </div>
          <div className="min-w-0">
            <dt className="font-medium text-slate-600">
              <Trans>Student</Trans>
            </dt>
            <dd className="text-slate-900">{student}</dd>
            {/* A child without a login has a placeholder, which is no address: the server sends null. */}
            <dd className="break-all text-slate-700">{link.student.email ?? t`No login of their own`}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">
              <Trans>Lessons ahead the parent paid for</Trans>
            </dt>
            <dd className="tabular-nums text-slate-900">{lessonsAhead}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">
              <Trans>Monthly limit</Trans>
            </dt>
            <dd className="tabular-nums text-slate-900">
              {link.monthlyLimit
                ? formatAmount(link.monthlyLimit.amountCents, link.monthlyLimit.currency, { minor: 'always' })
                : t`No limit`}
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">
              <Trans>Linked</Trans>
            </dt>
            <dd className="text-slate-900">
              <time dateTime={link.createdAt}>{dateTimeLabel(link.createdAt)}</time>
            </dd>
          </div>
        </dl>
        <div className="mt-4 flex flex-wrap gap-2 border-t border-slate-100 pt-4 sm:mt-auto">
          <Button
            variant="danger"
            onClick={onUnlink}
            aria-haspopup="dialog"
            aria-label={t`Unlink ${student} from ${parent}`}
          >
            <Trans>Unlink</Trans>
          </Button>
        </div>
      </article>
    </li>
  );
}

/** What an unlink does to this link, sentence by sentence, as the server will do it. */
function consequences(link: AdminFamilyLink): string[] {
  const student = link.student.displayName;
  const parent = link.parent.displayName;
  const count = link.lessonsAhead;
  return [
    i18n._(
      msg`${plural(count, {
        0: `None of ${student}’s lessons ahead was paid for by ${parent}, so none is cancelled.`,
        one: `The # lesson ahead ${parent} paid for is cancelled, its price given back to ${parent}, and both people are told.`,
        other: `The # lessons ahead ${parent} paid for are cancelled, their price given back to ${parent}, and both people are told.`,
      })}`,
    ),
    i18n._(
      msg`${student}’s class seats are given up, and the packages ${parent} bought for them end, the unused credits back to ${parent}.`,
    ),
    link.student.hasLogin
      ? i18n._(msg`${student} keeps their account and pays for themselves from then on.`)
      : i18n._(msg`${student} has no login of their own, so their account is deleted.`),
  ];
}

/** What the unlink did, from the server's answer. */
function doneSentence(
  link: AdminFamilyLink,
  unlinked: { lessonsCancelled: number; packagesEnded: number; childDeleted: boolean },
) {
  const student = link.student.displayName;
  const parent = link.parent.displayName;
  const { lessonsCancelled, packagesEnded } = unlinked;
  return [
    i18n._(msg`Unlinked ${student} from ${parent}.`),
    i18n._(
      msg`${plural(lessonsCancelled, { 0: 'No lesson cancelled', one: '# lesson cancelled', other: '# lessons cancelled' })}, ${plural(packagesEnded, { 0: 'no package ended', one: '# package ended', other: '# packages ended' })}.`,
    ),
    unlinked.childDeleted ? i18n._(msg`${student}’s account is deleted.`) : '',
  ]
    .filter(Boolean)
    .join(' ');
}

function UnlinkDialog({ link, onClose }: { link: AdminFamilyLink; onClose: (done?: string) => void }) {
  const { t } = useLingui();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const action = useApiAction();
  const student = link.student.displayName;
  const parent = link.parent.displayName;
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setProblem(t`Please give a reason: it is kept in the audit log.`);
      return;
    }
    setProblem(null);
    await action.run(() => unlinkFamily(link.parent.id, link.student.id, reason.trim()), {
      onDone: ({ unlinked }) => onClose(doneSentence(link, unlinked)),
    });
  }
  return (
    <Dialog
      open
      onClose={() => onClose()}
      title={t`Unlink ${student} from ${parent}?`}
      description={t`${parent} stops paying for ${student}, at once:`}
    >
      <ul className="mt-2 list-disc space-y-1 ps-5 text-sm text-slate-700">
        {consequences(link).map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
      <form onSubmit={submit} className="mt-4 space-y-4" noValidate>
        {action.problem ? <ErrorMessage>{action.problem}</ErrorMessage> : null}
        <TextArea
          label={t`Reason (required)`}
          hint={t`Kept in the audit log with the unlink.`}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          problem={problem}
          limit={REASON_LIMIT}
          required
          rows={3}
        />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => onClose()}>
            <Trans>Keep the link</Trans>
          </Button>
          <Button type="submit" variant="danger" busy={action.busy} aria-disabled={action.busy || undefined}>
            <Trans>Unlink</Trans>
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
