/**
 * The human check on sign-up: the self-hosted ALTCHA widget by default, Google reCAPTCHA v2 when
 * the server is configured for it. It reports the solution to submit (or null) through onChange;
 * the server verifies it, this only spares a round trip. Change `resetKey` to start a fresh check
 * (a solution works once).
 */

import { Trans } from '@lingui/react/macro';
import type {} from 'altcha/types/react';
import { useEffect, useRef, useState } from 'react';
import { intlLocaleOf } from '../../../shared/languages';
import { FieldProblemLine, useFieldProblem } from '../../components/form';
import { pageLanguage } from '../../lib/i18n';
import type { PublicConfig } from '../../lib/public-config';

interface HumanCheckProps {
  config: PublicConfig;
  onChange(solution: string | null): void;
  resetKey: number;
}

export function HumanCheck({ config, onChange, resetKey }: HumanCheckProps) {
  return config.captcha.kind === 'recaptcha' ? (
    <Recaptcha key={resetKey} siteKey={config.captcha.siteKey} onChange={onChange} />
  ) : (
    <Altcha key={resetKey} onChange={onChange} />
  );
}

/**
 * ALTCHA's widget (about 27 kB of script, and the work of starting it) loads when the visitor first
 * touches the form, not with the page, so the sign-up page is interactive sooner. A plain checkbox with the widget's own label stands in its place until the visitor
 * ticks it; then the widget takes its place and starts the check at once. The stand-in is never
 * swapped out before that tick, so a click can never land on a box that is being replaced.
 */
function Altcha({ onChange }: { onChange(solution: string | null): void }) {
  const ref = useRef<HTMLElement>(null);
  const standIn = useRef<HTMLDivElement>(null);
  const [wanted, setWanted] = useState(false);
  const [ticked, setTicked] = useState(false);
  const [ready, setReady] = useState(false);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  // The first focus, tap or key anywhere in the form asks for the widget.
  useEffect(() => {
    const form = standIn.current?.closest('form');
    if (!form || wanted) return;
    const want = () => setWanted(true);
    // A visitor quicker than the page's configuration is already in the form.
    if (form.contains(document.activeElement)) return want();
    for (const type of ['focusin', 'pointerdown', 'keydown'] as const) form.addEventListener(type, want);
    return () => {
      for (const type of ['focusin', 'pointerdown', 'keydown'] as const) form.removeEventListener(type, want);
    };
  }, [wanted]);

  useEffect(() => {
    if (!wanted) return;
    let cancelled = false;
    import('./altcha-setup').then(() => {
      if (!cancelled) setReady(true);
    });
    return () => {
      cancelled = true;
    };
  }, [wanted]);

  useEffect(() => {
    const widget = ref.current;
    if (!ready || !ticked || !widget) return;
    const onState = (event: Event) => {
      const { state, payload } = (event as CustomEvent<{ state: string; payload?: string }>).detail;
      onChangeRef.current(state === 'verified' && payload ? payload : null);
    };
    widget.addEventListener('statechange', onState);
    // Whoever ticked the stand-in keeps their place: focus, lost when the stand-in went away, moves
    // to the widget's own checkbox as soon as the widget has drawn it (a frame or two after mount),
    // unless the visitor has gone on to another field meanwhile.
    const root = widget.shadowRoot ?? widget;
    const focusBox = () => {
      const box = root.querySelector<HTMLInputElement>('input[type="checkbox"]');
      if (!box) return false;
      if (document.activeElement === null || document.activeElement === document.body) box.focus();
      return true;
    };
    const drawn = new MutationObserver(() => {
      if (focusBox()) drawn.disconnect();
    });
    if (!focusBox()) drawn.observe(root, { childList: true, subtree: true });
    return () => {
      drawn.disconnect();
      widget.removeEventListener('statechange', onState);
    };
  }, [ready, ticked]);

  useEffect(() => () => onChangeRef.current(null), []);
  // Marked, as any field at fault is, when the form was sent without the check.
  const problem = useFieldProblem('captcha', 'captcha-problem');

  return (
    <div className="min-h-[74px]" ref={standIn}>
      {ready && ticked ? (
        <altcha-widget ref={ref} challenge="/api/captcha/challenge" auto="onload" />
      ) : (
        <label
          className={`flex min-h-[74px] items-center gap-3 rounded-md border bg-white px-4 text-sm text-slate-900 ${problem ? 'border-red-600' : 'border-slate-300'}`}
        >
          <input
            type="checkbox"
            className="size-5"
            checked={ticked}
            aria-busy={ticked}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem?.describedBy}
            onChange={() => {
              setWanted(true);
              setTicked(true);
            }}
          />
          <Trans>I'm not a robot</Trans>
          {ticked && (
            <span className="text-slate-600">
              <Trans>Starting the check…</Trans>
            </span>
          )}
        </label>
      )}
      <FieldProblemLine id="captcha-problem" problem={problem} />
    </div>
  );
}

declare global {
  interface Window {
    grecaptcha?: {
      render(element: HTMLElement, options: Record<string, unknown>): number;
      ready(callback: () => void): void;
    };
    onTutorlaneRecaptchaLoad?: () => void;
  }
}

function loadRecaptchaScript(): Promise<void> {
  if (window.grecaptcha) return Promise.resolve();
  return new Promise((resolve, reject) => {
    window.onTutorlaneRecaptchaLoad = () => resolve();
    const script = document.createElement('script');
    // In the page's language (hl).
    const hl = intlLocaleOf(pageLanguage());
    script.src = `https://www.google.com/recaptcha/api.js?onload=onTutorlaneRecaptchaLoad&render=explicit&hl=${hl}`;
    script.async = true;
    script.onerror = () => reject(new Error('reCAPTCHA did not load'));
    document.head.append(script);
  });
}

function Recaptcha({ siteKey, onChange }: { siteKey: string; onChange(solution: string | null): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    loadRecaptchaScript()
      .then(() => {
        if (cancelled || !ref.current || !window.grecaptcha) return;
        window.grecaptcha.render(ref.current, {
          sitekey: siteKey,
          callback: (token: string) => onChangeRef.current(token),
          'expired-callback': () => onChangeRef.current(null),
          'error-callback': () => onChangeRef.current(null),
        });
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      onChangeRef.current(null);
    };
  }, [siteKey]);

  return failed ? (
    <p role="alert" className="text-sm text-red-800">
      <Trans>reCAPTCHA could not load. Please check your connection and reload the page.</Trans>
    </p>
  ) : (
    <div ref={ref} className="min-h-[78px]" />
  );
}
