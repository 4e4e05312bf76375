/** /profile: the signed-in user's profile. Today: the display name, saved through the profile API. */
import { type FormEvent, useState } from 'react';
import { ROLE_LABELS } from '../../../shared/constants';
import { messages } from '../../../shared/messages';
import { AuthCard } from '../../components/auth-card';
import { Button } from '../../components/button';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { ApiError } from '../../lib/api-client';
import { useAuth } from '../auth/auth-provider';

export function Component() {
  const auth = useAuth();
  const user = auth.status === 'signed-in' ? auth.user : null;
  const [displayName, setDisplayName] = useState(user?.displayName ?? '');
  const [state, setState] = useState<'idle' | 'saving' | 'saved'>('idle');
  const [error, setError] = useState('');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    if (!displayName.trim()) {
      setError(messages.fillAllFields);
      return;
    }
    setState('saving');
    try {
      await auth.actions.updateDisplayName(displayName.trim());
      setState('saved');
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : messages.unexpectedError);
      setState('idle');
    }
  };

  return (
    <AuthCard title="Your profile" subtitle={user ? `${user.email} · ${ROLE_LABELS[user.role]}` : undefined}>
      <title>Your profile · Tutorlane</title>
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        {state === 'saved' ? <StatusMessage>{messages.profileSaved}</StatusMessage> : null}
        {error ? <ErrorMessage>{error}</ErrorMessage> : null}
        <TextField
          label="Display Name"
          name="displayName"
          autoComplete="name"
          value={displayName}
          onChange={(event) => {
            setDisplayName(event.target.value);
            setState('idle');
          }}
        />
        <Button
          type="submit"
          size="lg"
          className="w-full"
          busy={state === 'saving'}
          disabled={state === 'saving'}
        >
          Save Profile
        </Button>
      </form>
    </AuthCard>
  );
}
