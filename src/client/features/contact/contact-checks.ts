/**
 * The contact form's browser check: the seed's "Please fill in all fields" first, then the shared
 * schema the server applies (a subject of the six, a valid email, bounded lengths), so the visitor
 * reads the server's words before a request is spent. The server repeats every check.
 */
import { messages } from '../../../shared/messages';
import { contactMessageSchema } from '../../../shared/schemas';

export interface ContactDraft {
  name: string;
  email: string;
  subject: string;
  message: string;
}
export type ContactField = keyof ContactDraft;

export interface ContactProblem {
  message: string;
  /** The fields to mark invalid. */
  fields: ContactField[];
}

const isContactField = (key: unknown): key is ContactField =>
  key === 'name' || key === 'email' || key === 'subject' || key === 'message';

/** The first problem with the draft, in the form's order, or null when it may be sent. */
export function firstContactProblem(draft: ContactDraft): ContactProblem | null {
  const empty = (['name', 'email', 'message'] as const).filter((field) => !draft[field].trim());
  if (empty.length > 0) return { message: messages.fillAllFields, fields: empty };
  const parsed = contactMessageSchema.safeParse(draft);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const field = issue?.path[0];
  return { message: issue?.message ?? messages.invalidRequest, fields: isContactField(field) ? [field] : [] };
}
