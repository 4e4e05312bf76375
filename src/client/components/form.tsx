/**
 * The one way a form is built: `ActionForm` sends to its route's action through a fetcher of its
 * own (several forms on one page keep their own state), checks in JavaScript (noValidate) with the
 * action's schema, shows the action's answer (FormAnswerMessage), marks every field at fault until
 * it is edited (fields read `useFieldProblem`), scrolls the problem into view on a small screen,
 * and busies its SubmitButton while the form is sent. No page keeps an error state or a submitting
 * flag of its own.
 *
 * Every problem is said once: the form's alert says the first one (the product's messages keep
 * their order there), and each field at fault says its own below it, unless those are the
 * alert's very words: that field is then marked and described by the alert instead.
 */
import {
  type ComponentProps,
  createContext,
  type FormEvent,
  type ReactNode,
  type Ref,
  type RefObject,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import type { FetcherWithComponents } from 'react-router';
import { type FormAnswer, loadFormChecks } from '../lib/forms';
import { translated } from '../lib/i18n';
import { Button } from './button';
import { ErrorMessage, StatusMessage } from './messages';

interface FormState {
  answer: FormAnswer | undefined;
  busy: boolean;
  /** Fields edited since the answer came: no longer marked. */
  edited: ReadonlySet<string>;
  alertId: string;
}

const FormStateContext = createContext<FormState | null>(null);

export function ActionForm({
  fetcher,
  children,
  className,
  action,
  encType,
  formRef,
  id,
  after,
  labelledBy,
}: {
  fetcher: FetcherWithComponents<FormAnswer | undefined>;
  /** The heading that names the form (a named form is a landmark a screen reader can find). */
  labelledBy?: string;
  children: ReactNode;
  className?: string;
  /** Another route's action; by default the page's own. */
  action?: string;
  encType?: 'multipart/form-data';
  formRef?: Ref<HTMLFormElement>;
  /** For a control outside the form that belongs to it (`form={id}`), such as a SaveBar in `after`. */
  id?: string;
  /**
   * Drawn right after the form element, with the form's state: a SaveBar whose stickiness must
   * reach past the form, to the end of what holds it (a button there names the form by `id`).
   */
  after?: ReactNode;
}) {
  const busy = fetcher.state !== 'idle';
  // While the form is sent, the last answer no longer stands; edits since it are kept apart.
  const answer = busy ? undefined : fetcher.data;
  const [edited, setEdited] = useState<{ answer: FormAnswer | undefined; names: Set<string> }>({
    answer: undefined,
    names: new Set(),
  });
  const editedNow = edited.answer === answer ? edited.names : new Set<string>();
  const alertId = useId();

  // A new problem is brought into view (the form's top may be off a phone's screen).
  useEffect(() => {
    if (!answer?.problem) return;
    const alert = document.getElementById(alertId);
    const box = alert?.getBoundingClientRect();
    if (alert && box && (box.top < 0 || box.bottom > window.innerHeight)) {
      alert.scrollIntoView({ block: 'center' });
    }
  }, [answer, alertId]);

  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const name = (event.target as { name?: string }).name;
    if (!name) return;
    setEdited((current) => ({
      answer,
      names: new Set([...(current.answer === answer ? current.names : []), name]),
    }));
  };

  return (
    <FormStateContext.Provider value={{ answer, busy, edited: editedNow, alertId }}>
      <fetcher.Form
        ref={formRef}
        id={id}
        aria-labelledby={labelledBy}
        method="post"
        noValidate
        action={action}
        encType={encType}
        className={className}
        onFocus={() => void loadFormChecks().catch(() => {})}
        onInput={onInput}
        onChange={onInput}
        onSubmit={(event) => {
          // Once sent, a second press waits for the answer (the button stays focusable meanwhile).
          if (busy) event.preventDefault();
        }}
      >
        {children}
      </fetcher.Form>
      {after}
    </FormStateContext.Provider>
  );
}

function useFormState(): FormState {
  return useContext(FormStateContext) ?? { answer: undefined, busy: false, edited: new Set(), alertId: '' };
}

/** What is wrong with one field, as the form's answer says it. */
export interface FieldProblem {
  message: string;
  /** False when the form's alert says these very words: the field is marked, not told twice. */
  saidHere: boolean;
  /** For the field's aria-describedby: its own line (`lineId`), or the form's alert. */
  describedBy: string;
}

/**
 * The problem of one field, while it has not been edited since. `lineId` is the id of the line
 * that says it below the field (FieldProblemLine).
 */
export function useFieldProblem(name: string | undefined, lineId: string): FieldProblem | undefined {
  const { answer, edited, alertId } = useFormState();
  if (!name || edited.has(name)) return undefined;
  const message = answer?.problem?.fields[name];
  if (message === undefined) return undefined;
  const saidHere = message !== answer?.problem?.message;
  return { message, saidHere, describedBy: saidHere ? lineId : alertId };
}

/** The line below a field that says its problem, unless the form's alert already does. */
export function FieldProblemLine({
  id,
  problem,
  className = 'mt-1',
}: {
  id: string;
  problem: FieldProblem | undefined;
  className?: string;
}) {
  if (!problem?.saidHere) return null;
  return (
    <p id={id} className={`${className} text-sm font-medium text-red-700`}>
      {translated(problem.message)}
    </p>
  );
}

/**
 * The answer: the problem (announced at once), or the note that it went through (announced
 * politely, and gone once the form is edited again).
 */
export function FormAnswerMessage({ children }: { children?: (done: string) => ReactNode }) {
  const { answer, edited, alertId } = useFormState();
  if (answer?.problem) {
    return (
      <div id={alertId}>
        <ErrorMessage key={JSON.stringify(answer)}>{translated(answer.problem.message)}</ErrorMessage>
      </div>
    );
  }
  if (answer?.done && edited.size === 0) {
    const done = translated(answer.done);
    return <StatusMessage>{children ? children(done) : done}</StatusMessage>;
  }
  return null;
}

/** The form's submit button: busy, and aria-disabled (so it keeps the focus), while the form is sent. */
export function SubmitButton({
  children,
  busyLabel,
  ...props
}: Omit<ComponentProps<typeof Button>, 'type' | 'busy'> & { busyLabel?: string }) {
  const { busy } = useFormState();
  return (
    <Button {...props} type="submit" busy={busy} aria-disabled={busy || props['aria-disabled'] || undefined}>
      {busy && busyLabel ? busyLabel : children}
    </Button>
  );
}

/**
 * A long form's Save and its answer. While something is changed, being saved or answered, it stays
 * on the screen (sticky) wherever the person is in what holds it: at the screen's bottom while they
 * are above it, under the navigation bar while they are below it. So a form longer than a phone's
 * screen is saved without scrolling back to its end; otherwise it rests where it stands. It stays
 * within its parent element: the form, or what holds the form (ActionForm's `after`).
 */
export function SaveBar({
  unsaved,
  children,
  className = '',
  restingClassName = '',
  heldClassName = '',
}: {
  unsaved: boolean;
  children: ReactNode;
  className?: string;
  /** Only while it rests where it stands. */
  restingClassName?: string;
  /** Only while it holds to the screen's bottom. */
  heldClassName?: string;
}) {
  const { answer, busy, edited } = useFormState();
  const answered = Boolean(answer?.problem) || Boolean(answer?.done && edited.size === 0);
  const held = unsaved || busy || answered;
  return (
    <div
      data-held={held || undefined}
      className={`${className} ${
        held
          ? `sticky top-16 bottom-0 z-20 border-y border-slate-200 bg-white/95 shadow-[0_0_16px_-6px_rgb(15_23_42/0.35)] backdrop-blur ${heldClassName}`
          : restingClassName
      }`}
    >
      {children}
    </div>
  );
}

/**
 * Whether a form whose fields keep their own values (defaultValue) differs from what was last
 * saved: what it would send is compared with what it held when drawn, and after each save that
 * went through.
 */
export function useUnsavedForm(
  form: RefObject<HTMLFormElement | null>,
  fetcher: FetcherWithComponents<FormAnswer | undefined>,
): boolean {
  const saved = useRef<string | null>(null);
  const [unsaved, setUnsaved] = useState(false);
  const sending = useCallback(
    () =>
      form.current
        ? JSON.stringify([...new FormData(form.current)].filter(([, value]) => typeof value === 'string'))
        : '',
    [form],
  );
  useEffect(() => {
    const element = form.current;
    if (!element) return;
    saved.current = sending();
    const check = () => setUnsaved(sending() !== saved.current);
    element.addEventListener('input', check);
    element.addEventListener('change', check);
    return () => {
      element.removeEventListener('input', check);
      element.removeEventListener('change', check);
    };
  }, [form, sending]);
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data?.done) return;
    saved.current = sending();
    setUnsaved(false);
  }, [fetcher.state, fetcher.data, sending]);
  return unsaved;
}

/** The form is being sent (for a page that shows more than the button while it waits). */
