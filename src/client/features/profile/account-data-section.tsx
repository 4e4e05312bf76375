/**
 * The end of /profile: a person's own data. "Download my data" saves the ZIP the server builds;
 * "Delete my account" says what deletion does and, once no money of theirs is left with the school
 * (./money-left.tsx shows what is, and how to get it back), asks for the password and lands the
 * person on the home page, signed out, with a confirmation there.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate, useRevalidator } from 'react-router';
import { exportFileName, hasMoneyLeft, type MoneyLeft } from '../../../shared/account-data';
import type { Role } from '../../../shared/constants';
import { paths } from '../../../shared/routes';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { ApiError, api, failureMessage, request } from '../../lib/api';
import { browserTimeZone } from '../../lib/time-zones';
import { authStore, useAuth } from '../auth';
import { MoneyLeftPanel } from './money-left';

export function AccountDataSection({ role, money }: { role: Role; money: MoneyLeft }) {
  return (
    <>
      <DownloadMyData />
      <DeleteMyAccount role={role} money={money} />
    </>
  );
}

function DownloadMyData() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = useId();

  async function download() {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      const res = await api.account.export.$get();
      if (!res.ok) await request(Promise.resolve(res));
      const blob = await res.blob();
      // The file keeps the server's name for it (the day it was made).
      const name =
        /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ??
        exportFileName(new Date().toISOString().slice(0, 10));
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      setProblem(failureMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        <Trans>Your data</Trans>
      </h2>
      <p className="text-slate-700">
        <Trans>
          Download a ZIP file of everything Tutorlane holds about you: your profile, lessons, messages,
          reviews, lesson notes, goals, wallet and your photo, as files you can open or take elsewhere.
        </Trans>
      </p>
      {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
      <Button variant="secondary" onClick={download} busy={busy}>
        <Trans>Download my data</Trans>
      </Button>
    </section>
  );
}

function DeleteMyAccount({ role, money }: { role: Role; money: MoneyLeft }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const auth = useAuth();
  const timeZone = auth.user?.timeZone ?? browserTimeZone();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    setBusy(true);
    setProblem(null);
    try {
      await request(api.account.delete.$post({ json: { password } }));
      // Off this signed-in page first (the home page reads the state to confirm the deletion),
      // then the browser learns it is signed out: the server cleared its cookies.
      await navigate(paths.home, { replace: true, state: { accountDeleted: true } });
      await authStore.refresh();
    } catch (error) {
      setProblem(failureMessage(error));
      setBusy(false);
      // Money that arrived since the page was read: show it, with the way to get it back.
      if (error instanceof ApiError && error.code === 'MONEY_LEFT') void revalidator.revalidate();
    }
  }
  const moneyLeft = hasMoneyLeft(money);

  return (
    <section
      aria-labelledby={headingId}
      className="space-y-4 rounded-2xl border border-red-200 bg-white p-6 shadow-sm sm:p-8"
    >
      <h2 id={headingId} className="text-lg font-semibold text-red-800">
        <Trans>Delete my account</Trans>
      </h2>
      <p className="text-slate-700">
        <Trans>Deleting your account cannot be undone. When you delete it:</Trans>
      </p>
      <ul className="list-disc space-y-1 ps-5 text-slate-700">
        <li>
          <Trans>you are signed out everywhere, and nobody can sign in to it again;</Trans>
        </li>
        <li>
          <Trans>your upcoming lessons are cancelled, and the other person is told;</Trans>
        </li>
        <li>
          {role === 'tutor' ? (
            <Trans>your profile, photo, goals, reviews and email address are erased;</Trans>
          ) : (
            <Trans>your profile, goals, reviews and email address are erased;</Trans>
          )}
        </li>
        {role === 'parent' ? (
          <li>
            <Trans>
              the children you added who have no login of their own are deleted with it, and the others are
              unlinked from you;
            </Trans>
          </li>
        ) : null}
        <li>
          <Trans>
            the people you wrote to see “Deleted user”, and “Message deleted” where your messages were;
          </Trans>
        </li>
        <li>
          <Trans>
            what the law makes a school keep (payments and receipts) stays, without your name or email.
          </Trans>
        </li>
      </ul>
      {moneyLeft ? (
        <MoneyLeftPanel money={money} timeZone={timeZone} />
      ) : (
        <p className="text-slate-700">
          {role === 'tutor' ? (
            <>
              <Trans>If you are still owed money for lessons, ask for a payout first.</Trans>{' '}
            </>
          ) : null}
          <Trans>You may want to download your data before you go.</Trans>
        </p>
      )}
      {/* While money is left the password would only be refused: the panel above says what to do. */}
      <form onSubmit={submit} className="space-y-4" hidden={moneyLeft}>
        <TextField
          label={t`Password`}
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
        {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
        <Button type="submit" variant="danger" busy={busy}>
          <Trans>Delete my account</Trans>
        </Button>
      </form>
    </section>
  );
}
