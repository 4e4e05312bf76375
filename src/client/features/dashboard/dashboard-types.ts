/** The dashboard payload, typed once on the server and reused here. */
export type {
  Dashboard,
  StudentDashboard,
  TutorDashboard,
} from '../../../server/dashboard/dashboard-data';
