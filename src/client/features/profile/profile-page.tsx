/**
 * /profile: the signed-in user's profile. Everyone edits their display name and time zone; a
 * student adds learning goals; a tutor builds the public profile students search (photo, headline,
 * about, subjects, rate, languages, experience) and sees what is still missing before it is public.
 */
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { ROLE_LABELS, SUBJECT_CATEGORIES } from '../../../shared/constants';
import { messages } from '../../../shared/messages';
import { tutorPath } from '../../../shared/routes';
import {
  MAX_ABOUT_LENGTH,
  MAX_HEADLINE_LENGTH,
  MAX_HOURLY_RATE,
  MAX_LEARNING_GOALS_LENGTH,
  MAX_PHOTO_BYTES,
  MIN_HOURLY_RATE,
  SPOKEN_LANGUAGES,
  type SpokenLanguage,
  SUBJECTS_BY_CATEGORY,
  TYPICAL_RATE_TEXT,
} from '../../../shared/tutor-catalog';
import { Button } from '../../components/button';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { LoadingBlock } from '../../components/spinner';
import { fieldClass, TextArea, TextField } from '../../components/text-field';
import { ApiError } from '../../lib/api-client';
import { useAuth } from '../auth/auth-provider';
import { TutorAvatar } from '../tutors/tutor-avatar';
import {
  browserTimeZone,
  fetchDetails,
  type ProfileDetails,
  removePhoto,
  saveDetails,
  type TutorDetails,
  timeZones,
  uploadPhoto,
} from './profile-api';

const errorText = (caught: unknown) =>
  caught instanceof ApiError ? caught.message : messages.unexpectedError;

export function Component() {
  const auth = useAuth();
  const user = auth.status === 'signed-in' ? auth.user : null;
  const [details, setDetails] = useState<ProfileDetails | null>(null);
  const [loadError, setLoadError] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    fetchDetails(controller.signal)
      .then(setDetails)
      .catch((caught) => {
        if ((caught as Error).name !== 'AbortError') setLoadError(errorText(caught));
      });
    return () => controller.abort();
  }, []);

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-12">
      <title>Your profile · Tutorlane</title>
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Your profile</h1>
        {user ? (
          <p className="mt-2 text-slate-700">
            {user.email} · {ROLE_LABELS[user.role]}
          </p>
        ) : null}
      </header>
      {loadError ? (
        <div className="mt-6">
          <ErrorMessage>{loadError}</ErrorMessage>
        </div>
      ) : null}
      {!details && !loadError ? <LoadingBlock label="Loading your profile…" /> : null}
      {details ? <ProfileForm details={details} onSaved={setDetails} /> : null}
    </div>
  );
}

function ProfileForm({
  details,
  onSaved,
}: {
  details: ProfileDetails;
  onSaved(details: ProfileDetails): void;
}) {
  const auth = useAuth();
  const user = auth.status === 'signed-in' ? auth.user : null;
  const tutor = details.role === 'tutor' ? details : null;
  const [displayName, setDisplayName] = useState(user?.displayName ?? '');
  const [timeZone, setTimeZone] = useState(details.timeZone ?? browserTimeZone());
  const [learningGoals, setLearningGoals] = useState(details.role === 'student' ? details.learningGoals : '');
  const [headline, setHeadline] = useState(tutor?.headline ?? '');
  const [about, setAbout] = useState(tutor?.about ?? '');
  const [subjects, setSubjects] = useState<string[]>(tutor?.subjects ?? []);
  const [hourlyRate, setHourlyRate] = useState(
    tutor?.hourlyRate === null || !tutor ? '' : String(tutor.hourlyRate),
  );
  const [languages, setLanguages] = useState<SpokenLanguage[]>((tutor?.languages ?? []) as SpokenLanguage[]);
  const [years, setYears] = useState(
    tutor?.yearsExperience === null || !tutor ? '' : String(tutor.yearsExperience),
  );
  const [state, setState] = useState<'idle' | 'saving' | 'saved'>('idle');
  const [error, setError] = useState('');
  const zones = timeZones();

  const toggle = <T extends string>(list: T[], value: T): T[] =>
    list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
  const edited = () => setState('idle');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    if (!displayName.trim()) return setError(messages.fillAllFields);
    const rate = hourlyRate.trim() === '' ? null : Number(hourlyRate);
    if (rate !== null && (!Number.isInteger(rate) || rate < MIN_HOURLY_RATE || rate > MAX_HOURLY_RATE)) {
      return setError(`Hourly rate must be between $${MIN_HOURLY_RATE} and $${MAX_HOURLY_RATE}`);
    }
    const yearsValue = years.trim() === '' ? null : Number(years);
    setState('saving');
    try {
      if (displayName.trim() !== user?.displayName) await auth.actions.updateDisplayName(displayName.trim());
      const saved = await saveDetails(
        tutor
          ? { timeZone, headline, about, subjects, hourlyRate: rate, languages, yearsExperience: yearsValue }
          : { timeZone, learningGoals },
      );
      onSaved(saved);
      setState('saved');
    } catch (caught) {
      setError(errorText(caught));
      setState('idle');
    }
  };

  return (
    <div className="mt-8 space-y-8">
      {tutor ? <PublicationChecklist details={tutor} /> : null}
      {tutor ? <PhotoEditor details={tutor} onSaved={onSaved} /> : null}
      <form
        noValidate
        onSubmit={onSubmit}
        className="space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
      >
        <h2 className="text-lg font-semibold text-slate-900">
          {tutor ? 'Your public profile' : 'About you'}
        </h2>
        <TextField
          label="Display Name"
          name="displayName"
          autoComplete="name"
          value={displayName}
          onChange={(e) => {
            setDisplayName(e.target.value);
            edited();
          }}
        />
        {tutor ? (
          <>
            <TextField
              label="Headline"
              name="headline"
              maxLength={MAX_HEADLINE_LENGTH}
              hint={`One line students see first (${headline.length}/${MAX_HEADLINE_LENGTH}).`}
              value={headline}
              onChange={(e) => {
                setHeadline(e.target.value);
                edited();
              }}
            />
            <div>
              <TextArea
                label="About"
                name="about"
                rows={6}
                maxLength={MAX_ABOUT_LENGTH}
                value={about}
                onChange={(e) => {
                  setAbout(e.target.value);
                  edited();
                }}
              />
              <p className="mt-1 text-sm text-slate-600">
                How you teach and who you teach ({about.length}/{MAX_ABOUT_LENGTH}).
              </p>
            </div>
            <fieldset>
              <legend className="text-sm font-medium text-slate-800">Subjects</legend>
              <div className="mt-2 grid gap-4 sm:grid-cols-2">
                {SUBJECT_CATEGORIES.map((category) => (
                  <fieldset key={category} className="rounded-lg border border-slate-200 p-3">
                    <legend className="px-1 text-sm font-semibold text-slate-900">{category}</legend>
                    <div className="grid grid-cols-2 gap-x-3 gap-y-1">
                      {SUBJECTS_BY_CATEGORY[category].map((subject) => (
                        <label key={subject} className="flex items-center gap-2 py-1 text-sm text-slate-800">
                          <input
                            type="checkbox"
                            checked={subjects.includes(subject)}
                            onChange={() => {
                              setSubjects(toggle(subjects, subject));
                              edited();
                            }}
                            className="size-4 accent-brand-700"
                          />
                          {subject}
                        </label>
                      ))}
                    </div>
                  </fieldset>
                ))}
              </div>
            </fieldset>
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField
                label="Hourly rate (USD)"
                name="hourlyRate"
                type="number"
                inputMode="numeric"
                min={MIN_HOURLY_RATE}
                max={MAX_HOURLY_RATE}
                step={1}
                hint={`Whole dollars, $${MIN_HOURLY_RATE}-${MAX_HOURLY_RATE}. ${TYPICAL_RATE_TEXT}`}
                value={hourlyRate}
                onChange={(e) => {
                  setHourlyRate(e.target.value);
                  edited();
                }}
              />
              <TextField
                label="Years of experience"
                name="yearsExperience"
                type="number"
                inputMode="numeric"
                min={0}
                max={60}
                value={years}
                onChange={(e) => {
                  setYears(e.target.value);
                  edited();
                }}
              />
            </div>
            <fieldset>
              <legend className="text-sm font-medium text-slate-800">Languages you teach in</legend>
              <div className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 sm:grid-cols-4">
                {SPOKEN_LANGUAGES.map((language) => (
                  <label key={language} className="flex items-center gap-2 py-1 text-sm text-slate-800">
                    <input
                      type="checkbox"
                      checked={languages.includes(language)}
                      onChange={() => {
                        setLanguages(toggle(languages, language));
                        edited();
                      }}
                      className="size-4 accent-brand-700"
                    />
                    {language}
                  </label>
                ))}
              </div>
            </fieldset>
          </>
        ) : (
          <TextArea
            label="Learning goals"
            name="learningGoals"
            rows={4}
            maxLength={MAX_LEARNING_GOALS_LENGTH}
            placeholder="What do you want to learn, and by when?"
            value={learningGoals}
            onChange={(e) => {
              setLearningGoals(e.target.value);
              edited();
            }}
          />
        )}
        <TimeZoneSelect
          value={timeZone}
          zones={zones}
          onChange={(value) => {
            setTimeZone(value);
            edited();
          }}
        />
        {state === 'saved' ? <StatusMessage>{messages.profileSaved}</StatusMessage> : null}
        {error ? <ErrorMessage>{error}</ErrorMessage> : null}
        <Button type="submit" size="lg" busy={state === 'saving'} disabled={state === 'saving'}>
          Save Profile
        </Button>
      </form>
    </div>
  );
}

function TimeZoneSelect({
  value,
  zones,
  onChange,
}: {
  value: string;
  zones: string[];
  onChange(value: string): void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        Time zone
      </label>
      <select
        id={id}
        name="timeZone"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={fieldClass}
      >
        {(zones.includes(value) ? zones : [value, ...zones]).map((zone) => (
          <option key={zone} value={zone}>
            {zone.replaceAll('_', ' ')}
          </option>
        ))}
      </select>
    </div>
  );
}

function PublicationChecklist({ details }: { details: TutorDetails }) {
  const user = useAuth();
  const id = user.status === 'signed-in' ? user.user.id : '';
  return details.published ? (
    <StatusMessage>
      Your profile is public: students can find you in search.{' '}
      <Link to={tutorPath(id)} className="font-semibold underline">
        View your public profile
      </Link>
    </StatusMessage>
  ) : (
    <section
      aria-labelledby="checklist-heading"
      className="rounded-2xl border border-amber-200 bg-amber-50 p-5"
    >
      <h2 id="checklist-heading" className="font-semibold text-amber-950">
        To appear in search, your profile still needs:
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-amber-950">
        {details.missing.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </section>
  );
}

function PhotoEditor({
  details,
  onSaved,
}: {
  details: TutorDetails;
  onSaved(details: ProfileDetails): void;
}) {
  const auth = useAuth();
  const user = auth.status === 'signed-in' ? auth.user : null;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const inputId = useId();

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setError('');
    setNote('');
    if (file.size > MAX_PHOTO_BYTES) return setError('The photo must be at most 5 MB');
    setBusy(true);
    try {
      onSaved(await uploadPhoto(file));
      setNote('Your photo has been updated.');
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };

  const onRemove = async () => {
    setBusy(true);
    setError('');
    try {
      onSaved(await removePhoto());
      setNote('Your photo has been removed.');
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      aria-labelledby="photo-heading"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="photo-heading" className="text-lg font-semibold text-slate-900">
        Photo
      </h2>
      <div className="mt-4 flex flex-wrap items-center gap-5">
        <TutorAvatar
          id={user?.id ?? ''}
          name={user?.displayName ?? ''}
          photoVersion={details.photoVersion}
          src={details.photoVersion ? `/api/profile/photo?v=${details.photoVersion}` : undefined}
          size={96}
        />
        <div className="space-y-2">
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
            Upload a photo
          </label>
          <input
            id={inputId}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            disabled={busy}
            onChange={(event) => {
              void onFile(event.target.files?.[0]);
              event.target.value = '';
            }}
            className="block text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-800"
          />
          <p className="text-sm text-slate-600">JPEG, PNG or WebP, up to 5 MB. We crop it to a square.</p>
          {details.hasPhoto ? (
            <Button variant="secondary" onClick={onRemove} disabled={busy}>
              Remove photo
            </Button>
          ) : null}
        </div>
      </div>
      <div className="mt-3 space-y-2">
        {busy ? (
          <p role="status" className="text-sm text-slate-700">
            Uploading…
          </p>
        ) : null}
        {note ? <StatusMessage>{note}</StatusMessage> : null}
        {error ? <ErrorMessage>{error}</ErrorMessage> : null}
      </div>
    </section>
  );
}
