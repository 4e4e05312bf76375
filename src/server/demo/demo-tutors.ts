/**
 * Believable demo tutors, generated deterministically (the same seed gives the same people) with
 * no network and no real person's photo: names are combined from lists, avatars are drawn initials.
 * Used by `npm run seed:demo` (demo-seed.ts) and by the tests.
 */
import { type Kysely, sql } from 'kysely';
import sharp from 'sharp';
import { SUBJECT_CATEGORIES } from '../../shared/constants';
import {
  categoryOf,
  DEFAULT_CATALOG,
  offeredSubjects,
  SPOKEN_LANGUAGES,
  type SubjectCatalog,
  type SubjectCategory,
} from '../../shared/tutor-catalog';
import type { DB } from '../db/schema';
import { refreshListings } from '../platform/tutor-listing';

export const FIRST_NAMES = [
  'Amara',
  'Lucas',
  'Sofia',
  'Mateo',
  'Hana',
  'Noah',
  'Priya',
  'Elias',
  'Chloe',
  'Omar',
  'Ingrid',
  'Tomas',
  'Yuki',
  'Daniel',
  'Leila',
  'Marco',
  'Aisha',
  'Felix',
  'Nadia',
  'Jonas',
  'Mei',
  'Samuel',
  'Zara',
  'Pablo',
  'Freya',
  'Kwame',
  'Elena',
  'Arjun',
  'Clara',
  'Diego',
  'Ruth',
  'Kenji',
  'Maya',
  'Luca',
  'Anika',
  'Hugo',
  'Sana',
  'Oliver',
  'Imani',
  'Rafael',
  'Lena',
  'Tariq',
  'Julia',
  'Ivan',
  'Nora',
  'Emeka',
  'Vera',
  'Adrian',
];
export const LAST_NAMES = [
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Tanaka',
  'Alvarez',
  'Kowalski',
  'Haddad',
  'Novak',
  'Brennan',
  'Sato',
  'Fischer',
  'Mensah',
  'Romano',
  'Castillo',
  'Nakamura',
  'Petrov',
  'Dubois',
  'Schmidt',
  'Osei',
  'Rossi',
  'Johansson',
  'Kim',
  'Costa',
  'Ahmed',
  'Bianchi',
  'Walsh',
  'Herrera',
  'Varga',
  'Lund',
  'Iyer',
  'Keller',
  'Adeyemi',
  'Marino',
  'Silva',
  'Horvat',
  'Quinn',
  'Mori',
  'Baker',
  'Nielsen',
  'Reyes',
];
export const TIME_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'America/Toronto',
  'America/Mexico_City',
  'America/Sao_Paulo',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Madrid',
  'Europe/Paris',
  'Europe/Warsaw',
  'Africa/Lagos',
  'Africa/Nairobi',
  'Asia/Kolkata',
  'Asia/Tokyo',
  'Asia/Seoul',
  'Asia/Singapore',
  'Australia/Sydney',
];
const STYLES = [
  'patient, step-by-step lessons',
  'lessons built around real exam questions',
  'a relaxed pace with plenty of practice',
  'clear explanations and lots of examples',
  'projects you actually care about',
  'short, focused sessions with homework you can finish',
];
const AUDIENCES = [
  'high school students',
  'university students',
  'adult learners',
  'beginners',
  'busy professionals',
  'kids aged 10 to 15',
];
const BACKGROUNDS: Record<SubjectCategory, string[]> = {
  'Math & Science': [
    'I studied engineering and taught at a community college.',
    'I hold a master’s degree in applied mathematics.',
    'I was a lab researcher before I started teaching full time.',
  ],
  Languages: [
    'I grew up bilingual and have lived in three countries.',
    'I am a certified language teacher with a degree in linguistics.',
    'I worked as a translator for years before teaching.',
  ],
  Programming: [
    'I have worked as a software engineer at startups and large companies.',
    'I mentor junior developers and run coding workshops.',
    'I build data pipelines for a living and love explaining them.',
  ],
  'Arts & Design': [
    'I trained at an art academy and exhibit my work locally.',
    'I work as a designer and illustrator.',
    'I have performed and taught music for over a decade.',
  ],
};

/** mulberry32: a tiny, well-known seeded generator, so demo data is the same on every machine. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface DemoTutor {
  id: string;
  email: string;
  displayName: string;
  timeZone: string;
  headline: string;
  about: string;
  subjects: string[];
  categories: string[];
  languages: string[];
  hourlyRate: number;
  yearsExperience: number;
  withPhoto: boolean;
  joinedAt: Date;
}

/** `catalog`: the subjects to teach, the catalogue in effect (by default a new installation's). */
export function generateDemoTutors(
  count: number,
  seed = 2026,
  catalog: SubjectCatalog = DEFAULT_CATALOG,
): DemoTutor[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const tutors: DemoTutor[] = [];
  const epoch = Date.UTC(2026, 10, 1);
  for (let i = 0; i < count; i++) {
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    const category = SUBJECT_CATEGORIES[i % SUBJECT_CATEGORIES.length] as SubjectCategory;
    const offered = catalog.find((entry) => entry.category === category)?.offered ?? [];
    // A category whose every subject an admin retired lends its tutors the others' subjects.
    const pool = offered.length > 0 ? offered : offeredSubjects(catalog);
    const subjects: string[] = [];
    const subjectCount = 1 + Math.floor(random() * 3);
    while (subjects.length < subjectCount) {
      const subject = pick(pool);
      if (!subjects.includes(subject)) subjects.push(subject);
    }
    const languages = ['English'];
    for (let extra = Math.floor(random() * 3); extra > 0; extra--) {
      const language = pick(SPOKEN_LANGUAGES);
      if (!languages.includes(language)) languages.push(language);
    }
    // A language tutor speaks the languages they teach.
    for (const subject of subjects) {
      const spoken = subject === 'Mandarin' ? 'Chinese' : subject;
      if ((SPOKEN_LANGUAGES as readonly string[]).includes(spoken) && !languages.includes(spoken))
        languages.push(spoken);
    }
    const years = 1 + Math.floor(random() * 20);
    // Most rates between $25 and $75, a few cheaper or dearer.
    const base = 25 + Math.round(random() * 50);
    const hourlyRate = random() < 0.1 ? Math.max(10, base - 15) : random() < 0.1 ? base + 40 : base;
    const main = subjects[0] as string;
    const headline = `${main} tutor: ${pick(STYLES)}`.slice(0, 80);
    const about = [
      `Hi, I'm ${first}. I teach ${subjects.join(', ')} to ${pick(AUDIENCES)}.`,
      pick(BACKGROUNDS[category]),
      `In ${years} year${years === 1 ? '' : 's'} of tutoring I have learned that ${pick(STYLES)} work best.`,
      `Lessons are in ${languages.join(' or ')}. Book a first lesson and tell me what you want to reach.`,
    ].join(' ');
    tutors.push({
      id: `demo-tutor-${String(i + 1).padStart(5, '0')}`,
      email: `${first}.${last}.${i + 1}@demo.tutorlane.test`.toLowerCase(),
      displayName: `${first} ${last}`,
      timeZone: pick(TIME_ZONES),
      headline,
      about,
      subjects,
      categories: [...new Set(subjects.map((subject) => categoryOf(catalog, subject) ?? category))],
      languages,
      hourlyRate,
      yearsExperience: years,
      withPhoto: random() < 0.6,
      joinedAt: new Date(epoch - Math.floor(random() * 730) * 86_400_000),
    });
  }
  return tutors;
}

const PALETTE = ['#4338ca', '#0f766e', '#b45309', '#be123c', '#6d28d9', '#1d4ed8', '#047857', '#9d174d'];

/** A drawn avatar: the tutor's initials on a colour of the palette, as a 256 px WebP. */
export async function drawAvatar(tutor: DemoTutor): Promise<Buffer> {
  const initials = tutor.displayName
    .split(' ')
    .map((part) => part[0])
    .join('')
    .slice(0, 2);
  const colour = PALETTE[tutor.displayName.length % PALETTE.length];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="${colour}"/><circle cx="210" cy="46" r="70" fill="#ffffff" fill-opacity="0.12"/><text x="128" y="128" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="96" font-weight="700" fill="#ffffff">${initials}</text></svg>`;
  return sharp(Buffer.from(svg)).webp({ quality: 80 }).toBuffer();
}

/** Inserts the tutors (verified accounts without a password: they cannot sign in) and publishes them. */
export async function insertDemoTutors(
  db: Kysely<DB>,
  tutors: DemoTutor[],
  options: { photos: boolean },
): Promise<void> {
  for (let start = 0; start < tutors.length; start += 500) {
    const batch = tutors.slice(start, start + 500);
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values(
          batch.map((t) => ({
            id: t.id,
            email: t.email,
            display_name: t.displayName,
            email_verified: true,
            role: 'tutor' as const,
            time_zone: t.timeZone,
            created_at: t.joinedAt,
            updated_at: t.joinedAt,
          })),
        )
        .execute();
      await trx
        .insertInto('tutor_profiles')
        .values(
          batch.map((t) => ({
            user_id: t.id,
            headline: t.headline,
            about: t.about,
            subjects: t.subjects,
            categories: t.categories,
            languages: t.languages,
            hourly_rate: t.hourlyRate,
            years_experience: t.yearsExperience,
            has_photo: options.photos && t.withPhoto,
            published_at: t.joinedAt,
            created_at: t.joinedAt,
            updated_at: t.joinedAt,
          })),
        )
        .execute();
      if (options.photos) {
        for (const t of batch.filter((tutor) => tutor.withPhoto)) {
          const image = await drawAvatar(t);
          await trx
            .insertInto('profile_photos')
            .values({ user_id: t.id, image, content_type: 'image/webp', version: t.id.slice(-5) })
            .execute();
        }
      }
      await refreshListings(trx, sql`tp.user_id in (${sql.join(batch.map((t) => t.id))})`);
    });
  }
}
