import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router';
import { paths } from '../../../shared/routes';

/** On a phone a conversation is a screen of its own: this leads back to the inbox (hidden from md up, where both show). */
export function BackToInbox() {
  return (
    <Link
      to={paths.messages}
      className="mb-2 inline-block text-sm font-semibold text-brand-700 underline-offset-2 hover:underline md:hidden"
    >
      <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
        ←
      </span>{' '}
      <Trans>All conversations</Trans>
    </Link>
  );
}
