/**
 * How a group class's conversation looks: a group for a face, a "Class" tag beside its title, the
 * people in it (the tutor first) under the title, and each message under its writer's name. The
 * names come with the conversation; someone who enrolled after it was opened is looked up again
 * when their first message arrives.
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, request } from '../../lib/api';
import type { ConversationDetail } from './messages-data';

type Member = ConversationDetail['members'][number];

/** A class's picture: decorative, as its title is beside it. */
export function ClassAvatar({ size }: { size: number }) {
  return (
    <span
      aria-hidden="true"
      className="flex shrink-0 items-center justify-center rounded-full bg-emerald-700 text-white"
      style={{ width: size, height: size }}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        style={{ width: size * 0.55, height: size * 0.55 }}
      >
        <circle cx="9" cy="8" r="3" />
        <path d="M3 20c0-3.3 2.7-6 6-6s6 2.7 6 6" />
        <circle cx="17" cy="9" r="2.5" />
        <path d="M16 14.2c2.8.3 5 2.7 5 5.8" />
      </svg>
    </span>
  );
}

/** Marks a conversation as a class's group. */
export function ClassTag() {
  return (
    <span className="shrink-0 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-900 ring-1 ring-emerald-200 ring-inset">
      <Trans>Class</Trans>
    </span>
  );
}

/** Under the class's title: who reads the conversation now, the tutor first. */
export function ClassMembers({ members, userId }: { members: Member[]; userId: string }) {
  const { t } = useLingui();
  const present = members.filter((member) => !member.left);
  const count = present.length;
  const names = present
    .map((member) => {
      const name = member.displayName;
      return member.id === userId ? t`You` : member.role === 'tutor' ? t`${name} (tutor)` : name;
    })
    .join(', ');
  return (
    <p className="text-sm text-slate-600">
      <span className="sr-only">
        <Plural
          value={count}
          one="# person in this conversation:"
          other="# people in this conversation:"
        />{' '}
      </span>
      <span className="line-clamp-2 break-words">{names}</span>
    </p>
  );
}

/**
 * The name of each message's writer in a class's conversation: from the members the page loaded,
 * and for someone who joined since, from the conversation asked again (once per new writer).
 */
export function useMemberNames(detail: ConversationDetail) {
  const [members, setMembers] = useState(detail.members);
  useEffect(() => setMembers(detail.members), [detail.members]);
  const asked = useRef(new Set<string>());
  const names = new Map(members.map((member) => [member.id, member.displayName]));
  const known = useRef(names);
  known.current = names;
  const notice = useCallback(
    async (senderId: string | null) => {
      if (detail.class === null || senderId === null) return;
      if (known.current.has(senderId) || asked.current.has(senderId)) return;
      asked.current.add(senderId);
      try {
        const fresh = await request(api.conversations[':id'].$get({ param: { id: detail.id } }));
        setMembers(fresh.members);
      } catch {
        // The line shows without a name until the page is loaded again.
      }
    },
    [detail.class, detail.id],
  );
  return {
    members,
    nameOf: (senderId: string | null) => (senderId ? names.get(senderId) : undefined),
    notice,
  };
}
