/**
 * What the auth feature offers the rest of the app: the signed-in state and its store, the route
 * guards and the time-zone report. Other folders import these from here, never the files behind.
 */
export { AuthProvider, useAuth } from './auth-provider';
export { authStore } from './auth-store';
export { guards } from './route-guards';
export { reportTimeZoneOnce } from './time-zone-report';
