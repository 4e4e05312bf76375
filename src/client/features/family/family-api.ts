/**
 * /family's calls (the server's src/server/family/family-routes.ts): the family as its reader sees
 * it, a child added, invited to a login, given a monthly limit or removed, a parent invited, and
 * an invitation's link read and accepted.
 */
import type { ChildView, FamilyView } from '../../../shared/family/family-constants';
import { api, request } from '../../lib/api';

export type { ChildView, FamilyView };

/** What an invitation's link says before it is accepted. */
export interface InvitationView {
  kind: 'child_login' | 'parent';
  /** The invited child's first name (a child's login). */
  firstName?: string | null;
  /** Who sent it: the parent (a child's login) or the student (a parent's). */
  inviterName: string;
  /** The address it was sent to: the child's login, or the parent the student asked for. */
  email: string;
}

export const fetchFamily = (signal?: AbortSignal): Promise<FamilyView> =>
  request(api.family.$get(undefined, { init: { signal: signal ?? null } }));

export const addChild = (firstName: string, birthYear: number | string) =>
  // A year that is not a number goes as typed: the server names the field in its refusal.
  request(api.family.children.$post({ json: { firstName, birthYear: birthYear as number } }));

export const inviteChild = (id: string, email: string) =>
  request(api.family.children[':id'].invite.$post({ param: { id }, json: { email } }));

export const setMonthlyLimit = (id: string, monthlyLimitCents: number | null) =>
  request(api.family.children[':id'].$patch({ param: { id }, json: { monthlyLimitCents } }));

export const removeChild = (id: string) => request(api.family.children[':id'].$delete({ param: { id } }));

export const inviteParent = (email: string) =>
  request(api.family['parent-invitations'].$post({ json: { email } }));

export const fetchInvitation = (token: string, signal?: AbortSignal): Promise<InvitationView> =>
  request(api.family.invitations[':token'].$get({ param: { token } }, { init: { signal: signal ?? null } }));

export const acceptInvitation = (token: string, password?: string) =>
  request(
    api.family.invitations[':token'].accept.$post({
      param: { token },
      json: password === undefined ? {} : { password },
    }),
  );
