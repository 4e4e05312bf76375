/**
 * Which of a tutor's subjects a search was looking for, so that the tutor's page can preselect it
 * for a booking: someone who searched "guitar" and opens a tutor of guitar and Spanish means the
 * guitar. Only a search that singles out one subject the tutor teaches counts; otherwise nothing
 * is preselected and the student chooses.
 */
import { categoryOf, type SubjectCatalog } from '../../../shared/tutor-catalog';

/** The tutor's own spelling of a subject named in any letter case, or null when they do not teach it. */
export function taughtSubject(subjects: readonly string[], name: string | null | undefined): string | null {
  const wanted = name?.trim().toLowerCase();
  if (!wanted) return null;
  return subjects.find((subject) => subject.toLowerCase() === wanted) ?? null;
}

const isWordCharacter = (character: string | undefined) =>
  character !== undefined && /[\p{L}\p{N}]/u.test(character);

/** Whether `text` names `subject` as whole words ("learn guitar", "guitars"), not inside a word ("javascript" is not "java"). */
export function namesSubject(text: string, subject: string): boolean {
  const haystack = text.toLowerCase();
  const needle = subject.toLowerCase();
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    let end = at + needle.length;
    if (haystack[end] === 's') end += 1; // a plural still names it
    if (!isWordCharacter(haystack[at - 1]) && !isWordCharacter(haystack[end])) return true;
  }
  return false;
}

/**
 * The subject a search (the /tutors URL's parameters) was for among a tutor's subjects: the
 * subject filter when the tutor teaches it, else the only one of theirs the search text names,
 * else the only one of theirs in the chosen category (by the catalogue in effect); null when none or
 * several fit.
 */
export function searchedSubject(
  subjects: readonly string[],
  search: URLSearchParams,
  catalog: SubjectCatalog,
): string | null {
  const filtered = taughtSubject(subjects, search.get('subject'));
  if (filtered) return filtered;
  const only = (candidates: string[]) => (candidates.length === 1 ? (candidates[0] ?? null) : null);
  const text = search.get('q')?.trim() ?? '';
  if (text) {
    const named = only(subjects.filter((subject) => namesSubject(text, subject)));
    if (named) return named;
  }
  const category = search.get('category');
  if (!category) return null;
  return only(subjects.filter((subject) => categoryOf(catalog, subject) === category));
}
