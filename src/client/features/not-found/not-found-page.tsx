/** Every path the app has no page for (the server answers it with 404). */
import { NotFound } from '../../components/not-found';

export function Component() {
  return <NotFound />;
}
