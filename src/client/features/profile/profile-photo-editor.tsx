/** A tutor's photo on the profile page: upload one (cropped to a square by the server), or remove it. */
import { Trans, useLingui } from '@lingui/react/macro';
import { useFetcher, useRevalidator } from 'react-router';
import { Button } from '../../components/button';
import { ActionForm, FormAnswerMessage } from '../../components/form';
import { TextField } from '../../components/text-field';
import { TutorAvatar } from '../../components/tutor-avatar';
import type { FormAnswer } from '../../lib/forms';
import { useAuth } from '../auth';

export function PhotoEditor({ details }: { details: { hasPhoto: boolean; photoVersion: string | null } }) {
  const { t } = useLingui();
  const auth = useAuth();
  const user = auth.status === 'signed-in' ? auth.user : null;
  const fetcher = useFetcher<FormAnswer>();
  const revalidator = useRevalidator();
  const busy = fetcher.state !== 'idle' || revalidator.state !== 'idle';
  return (
    <section
      aria-labelledby="photo-heading"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="photo-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Photo</Trans>
      </h2>
      <ActionForm fetcher={fetcher} encType="multipart/form-data" className="mt-4 space-y-3">
        <div className="flex flex-wrap items-center gap-5">
          <TutorAvatar
            id={user?.id ?? ''}
            name={user?.displayName ?? ''}
            photoVersion={details.photoVersion}
            src={details.photoVersion ? `/api/profile/photo?v=${details.photoVersion}` : undefined}
            size={96}
          />
          <div className="space-y-2">
            <TextField
              label={t`Upload a photo`}
              type="file"
              name="photo"
              accept="image/jpeg,image/png,image/webp"
              disabled={busy}
              hint={t`JPEG, PNG or WebP, up to 5 MB. We crop it to a square.`}
              className="[&_input]:border-0 [&_input]:p-0 [&_input]:shadow-none"
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (!file) return;
                const form = new FormData();
                form.set('photo', file);
                void fetcher.submit(form, { method: 'post', encType: 'multipart/form-data' });
                event.target.value = '';
              }}
            />
            {details.hasPhoto ? (
              <Button
                variant="secondary"
                disabled={busy}
                onClick={() =>
                  void fetcher.submit(new FormData(), { method: 'post', encType: 'multipart/form-data' })
                }
              >
                <Trans>Remove photo</Trans>
              </Button>
            ) : null}
          </div>
        </div>
        {busy ? (
          <p role="status" className="text-sm text-slate-700">
            <Trans>Saving your photo…</Trans>
          </p>
        ) : (
          <FormAnswerMessage />
        )}
      </ActionForm>
    </section>
  );
}
