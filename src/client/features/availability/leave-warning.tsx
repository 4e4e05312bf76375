/**
 * Changes not saved yet are not lost without a word: reloading or closing the tab asks the
 * browser's own question, and following a link inside the app asks ours, Stay or Leave.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';

export function LeaveWarning({
  unsaved,
  description,
}: {
  unsaved: boolean;
  /** "Your changes to your availability are not saved yet. If you leave now, they are lost." */
  description: string;
}) {
  const { t } = useLingui();
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when a return value is set; none shows our words any more.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  // Only leaving the page asks: a search or a hash on the same page keeps the form as it is.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => unsaved && currentLocation.pathname !== nextLocation.pathname,
  );
  const blocked = blocker.state === 'blocked';

  return (
    <Dialog
      open={blocked}
      // Escape, like Stay, keeps the page (the dialog also closes once Leave was chosen).
      onClose={() => {
        if (blocker.state === 'blocked') blocker.reset();
      }}
      title={t`Leave without saving?`}
      description={description}
      alert
    >
      {/* Stay first: the dialog opens on it, so Enter or Space keeps the changes. */}
      <div className="mt-5 flex flex-wrap gap-3">
        <Button onClick={() => blocker.reset?.()}>
          <Trans>Stay</Trans>
        </Button>
        <Button variant="secondary" onClick={() => blocker.proceed?.()}>
          <Trans>Leave</Trans>
        </Button>
      </div>
    </Dialog>
  );
}
