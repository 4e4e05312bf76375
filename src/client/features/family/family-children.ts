/**
 * A parent's children, for the pages where a parent acts for one of them (the booking box, a
 * package, a class's enrolment): read once the signed-in user is a verified parent.
 */
import { useEffect, useState } from 'react';
import type { ChildView } from '../../../shared/family/family-constants';
import { fetchFamily } from './family-api';

export function useFamilyChildren(enabled: boolean): ChildView[] | null {
  const [children, setChildren] = useState<ChildView[] | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    fetchFamily(controller.signal)
      .then((family) => setChildren(family.children))
      .catch(() => {
        // Without the list the box says it could not be read; the server checks the child anyway.
        if (!controller.signal.aborted) setChildren([]);
      });
    return () => controller.abort();
  }, [enabled]);
  return enabled ? children : null;
}
