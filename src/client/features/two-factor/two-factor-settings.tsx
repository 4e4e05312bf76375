/**
 * Two-factor authentication for the signed-in user: setting it up (the password again, then a QR
 * code and the same key as text for an authenticator app, then the first code from it), the
 * backup codes shown once with a way to copy or download them, new backup codes and turning it
 * off (each with the password and a current code). Each of these signs the account out on every
 * other device. The QR code's library is loaded only once setup starts.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { Button } from '../../components/button';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { api, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { authStore, useAuth } from '../auth';

interface Setup {
  totpURI: string;
  secret: string;
  backupCodes: string[];
}

/** The text fields of a submitted form, by name. */
function fieldsOf(event: FormEvent<HTMLFormElement>): Record<string, string> {
  event.preventDefault();
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(event.currentTarget)) {
    if (typeof value === 'string') values[name] = value;
  }
  return values;
}

/** The key in groups of four, as authenticator apps show it and people type it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

export function TwoFactorSettings({ onEnabled }: { onEnabled?: () => void }) {
  const { t } = useLingui();
  const auth = useAuth();
  const enabled = auth.status === 'signed-in' && auth.user.twoFactorEnabled;
  // Backup codes just made, shown until the user says they have kept them.
  const [codes, setCodes] = useState<string[] | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  if (codes) {
    return (
      <BackupCodes
        codes={codes}
        onDone={() => {
          setCodes(null);
          setSaved(t`Two-factor authentication is on. Keep your backup codes somewhere safe.`);
          onEnabled?.();
        }}
      />
    );
  }
  if (enabled) {
    return (
      <div className="space-y-6">
        {saved ? <StatusMessage>{saved}</StatusMessage> : null}
        <p className="text-slate-700">
          <Trans>
            <strong className="font-semibold text-slate-900">Two-factor authentication is on.</strong> Signing
            in asks for a code from your authenticator app after your password.
          </Trans>
        </p>
        <NewBackupCodes onCodes={setCodes} />
        <TurnOff onDone={() => setSaved(t`Two-factor authentication is off.`)} />
      </div>
    );
  }
  return <TurnOn onVerified={setCodes} done={saved} />;
}

/** Off: the password starts setup; the app's first code finishes it. */
function TurnOn({ onVerified, done }: { onVerified: (codes: string[]) => void; done: string | null }) {
  const { t } = useLingui();
  const [setup, setSetup] = useState<Setup | null>(null);
  const starting = useApiAction();
  const verifying = useApiAction();

  const start = (event: FormEvent<HTMLFormElement>) => {
    const { password = '' } = fieldsOf(event);
    void starting.run(() => request(api.auth['two-factor'].enable.$post({ json: { password } })), {
      onDone: setSetup,
      reload: false,
    });
  };
  const verify = (event: FormEvent<HTMLFormElement>) => {
    const { code = '' } = fieldsOf(event);
    const backupCodes = setup?.backupCodes ?? [];
    void verifying.run(
      async () => {
        await request(api.auth['two-factor']['verify-totp'].$post({ json: { code } }));
        await authStore.refresh();
      },
      { onDone: () => onVerified(backupCodes), reload: false },
    );
  };

  if (!setup) {
    return (
      <form onSubmit={start} noValidate className="space-y-4">
        {done ? <StatusMessage>{done}</StatusMessage> : null}
        <p className="text-slate-700">
          <Trans>
            Two-factor authentication is off. Turn it on and signing in will ask for a code from an
            authenticator app on your phone (such as Google Authenticator, Microsoft Authenticator or
            1Password) after your password, so a stolen password alone cannot open your account. Your account
            is then signed out on your other devices.
          </Trans>
        </p>
        {starting.problem ? <ErrorMessage>{starting.problem}</ErrorMessage> : null}
        <TextField
          label={t`Your password`}
          type="password"
          name="password"
          autoComplete="current-password"
          hint={t`To set up two-factor authentication, confirm it is you.`}
        />
        <Button type="submit" busy={starting.busy} aria-disabled={starting.busy || undefined}>
          <Trans>Set up two-factor authentication</Trans>
        </Button>
      </form>
    );
  }
  return (
    <form onSubmit={verify} noValidate className="space-y-5">
      <ol className="list-decimal space-y-5 ps-5 text-slate-700">
        <li>
          <p>
            <Trans>Scan this QR code with your authenticator app.</Trans>
          </p>
          <QrCode text={setup.totpURI} />
          <p className="mt-3">
            <Trans>If you cannot scan it, add an account in the app by hand and type this key:</Trans>
          </p>
          <p
            dir="ltr"
            className="mt-1 break-all rounded-lg bg-slate-100 px-3 py-2 text-start font-mono text-base text-slate-900"
          >
            <span className="sr-only">
              <Trans>Setup key:</Trans>{' '}
            </span>
            <span data-testid="two-factor-secret">{grouped(setup.secret)}</span>
          </p>
        </li>
        <li>
          <p>
            <Trans>Enter the 6-digit code the app now shows for Tutorlane.</Trans>
          </p>
        </li>
      </ol>
      {verifying.problem ? <ErrorMessage>{verifying.problem}</ErrorMessage> : null}
      <TextField
        label={t`Code from the app`}
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        className="max-w-xs"
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" busy={verifying.busy} aria-disabled={verifying.busy || undefined}>
          <Trans>Turn on two-factor authentication</Trans>
        </Button>
        <Button variant="secondary" onClick={() => setSetup(null)}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}

/** The authenticator address as a QR code, drawn by a library fetched only when it is needed. */
function QrCode({ text }: { text: string }) {
  const { t } = useLingui();
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    import('uqr').then(
      ({ renderSVG }) => current && setSvg(renderSVG(text, { border: 2 })),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [text]);
  if (failed)
    return (
      <p className="mt-2 text-sm">
        <Trans>The QR code could not be drawn: type the key below instead.</Trans>
      </p>
    );
  return (
    <div className="mt-3 size-48 rounded-lg border border-slate-200 bg-white p-2">
      {svg ? (
        <img
          src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`}
          alt={t`QR code to scan with your authenticator app`}
          className="size-full"
        />
      ) : null}
    </div>
  );
}

/** The backup codes, once: to copy or download before going on. */
function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState<string | null>(null);
  const headingId = useId();
  const text = `${t`Tutorlane backup codes (each works once)`}\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(t`Copied. Paste them somewhere safe, such as a password manager.`);
    } catch {
      setCopied(t`Your browser did not let us copy them: download them, or write them down.`);
    }
  };
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'tutorlane-backup-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <h3 id={headingId} className="font-semibold text-slate-900">
        <Trans>Your backup codes</Trans>
      </h3>
      <p className="text-slate-700">
        <Trans>
          If you lose your phone, each of these codes signs you in once instead of the app. They are shown
          only now: copy or download them and keep them somewhere safe.
        </Trans>
      </p>
      <ul
        dir="ltr"
        className="grid grid-cols-2 gap-2 rounded-lg bg-slate-100 p-4 font-mono text-base text-slate-900 sm:grid-cols-3"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      {copied ? <StatusMessage tone="info">{copied}</StatusMessage> : null}
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={() => void copy()}>
          <Trans>Copy codes</Trans>
        </Button>
        <Button variant="secondary" onClick={download}>
          <Trans>Download codes</Trans>
        </Button>
        <Button onClick={onDone}>
          <Trans>I have saved my backup codes</Trans>
        </Button>
      </div>
    </section>
  );
}

/** A small form's frame, once its button has opened it. */
function Folded({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 rounded-lg border border-slate-200 p-4">
      <legend className="px-1 font-semibold text-slate-900">{title}</legend>
      {children}
    </fieldset>
  );
}

/** The field for a current code, which new backup codes and turning it off both ask for. */
function CurrentCodeField() {
  const { t } = useLingui();
  return (
    <TextField
      label={t`Code from your authenticator app, or a backup code`}
      name="code"
      autoComplete="one-time-code"
      className="max-w-xs"
    />
  );
}

/**
 * New backup codes (the old ones stop working): the password and a current code, so a password
 * alone, or a session someone else holds, cannot replace them.
 */
function NewBackupCodes({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const making = useApiAction();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    const { password = '', code = '' } = fieldsOf(event);
    void making.run(
      () => request(api.auth['two-factor']['generate-backup-codes'].$post({ json: { password, code } })),
      { onDone: ({ backupCodes }) => onCodes(backupCodes), reload: false },
    );
  };
  if (!open) {
    return (
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <Trans>Get new backup codes</Trans>
      </Button>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <Folded title={t`New backup codes`}>
        <p className="text-sm text-slate-700">
          <Trans>
            New codes replace the old ones, which then stop working, and your account is signed out on your
            other devices.
          </Trans>
        </p>
        {making.problem ? <ErrorMessage>{making.problem}</ErrorMessage> : null}
        <TextField label={t`Your password`} type="password" name="password" autoComplete="current-password" />
        <CurrentCodeField />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" busy={making.busy} aria-disabled={making.busy || undefined}>
            <Trans>Make new backup codes</Trans>
          </Button>
          <Button variant="secondary" onClick={() => setOpen(false)}>
            <Trans>Cancel</Trans>
          </Button>
        </div>
      </Folded>
    </form>
  );
}

/** Off again: the password and a current code, so a stolen password alone cannot turn it off. */
function TurnOff({ onDone }: { onDone: () => void }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const turningOff = useApiAction();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    const { password = '', code = '' } = fieldsOf(event);
    void turningOff.run(
      async () => {
        await request(api.auth['two-factor'].disable.$post({ json: { password, code } }));
        await authStore.refresh();
      },
      { onDone, reload: false },
    );
  };
  if (!open) {
    return (
      <Button variant="secondary" className="ms-0 sm:ms-3" onClick={() => setOpen(true)}>
        <Trans>Turn off two-factor authentication</Trans>
      </Button>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <Folded title={t`Turn off two-factor authentication`}>
        <p className="text-sm text-slate-700">
          <Trans>Your account is then signed out on your other devices.</Trans>
        </p>
        {turningOff.problem ? <ErrorMessage>{turningOff.problem}</ErrorMessage> : null}
        <TextField label={t`Your password`} type="password" name="password" autoComplete="current-password" />
        <CurrentCodeField />
        <div className="flex flex-wrap gap-3">
          <Button
            type="submit"
            variant="danger"
            busy={turningOff.busy}
            aria-disabled={turningOff.busy || undefined}
          >
            <Trans>Turn off</Trans>
          </Button>
          <Button variant="secondary" onClick={() => setOpen(false)}>
            <Trans>Cancel</Trans>
          </Button>
        </div>
      </Folded>
    </form>
  );
}
