/**
 * A message's text as it was written: plain text, line breaks kept, with web and mail addresses
 * made into links. Nothing else in a message is ever interpreted, and links open in a new tab
 * without telling the other site where they came from or lending it any ranking.
 */
import { linkifyit } from 'linkify-it';

const linkify = linkifyit();
/** Only schemes a browser opens harmlessly become links; anything else stays text. */
const SAFE = /^(https?:|mailto:)/i;

export function MessageText({ text }: { text: string }) {
  const matches = (linkify.match(text) ?? []).filter((match) => SAFE.test(match.url));
  // What a person wrote keeps its own direction on a page of the other (English on an Arabic page).
  if (matches.length === 0) return <bdi>{text}</bdi>;
  const parts: (string | { url: string; label: string; at: number })[] = [];
  let from = 0;
  for (const match of matches) {
    if (match.index > from) parts.push(text.slice(from, match.index));
    parts.push({ url: match.url, label: match.raw, at: match.index });
    from = match.lastIndex;
  }
  if (from < text.length) parts.push(text.slice(from));
  return (
    <bdi>
      {parts.map((part) =>
        typeof part === 'string' ? (
          part
        ) : (
          <a
            key={part.at}
            href={part.url}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="break-all font-medium underline"
          >
            {part.label}
          </a>
        ),
      )}
    </bdi>
  );
}
