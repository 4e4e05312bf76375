/**
 * The dashboards' content, served by the API behind the verified-user guard, so the page and its data are protected the same way, and the
 * day real lessons exist only this module changes.
 */
import type { Role } from '../../shared/constants';

export interface TutorDashboard {
  role: 'tutor';
  todaysSessions: { time: string; student: string; subject: string; durationMinutes: number }[];
  earnings: { thisMonthUsd: number; changeFromLastMonthPercent: number; pendingPayoutUsd: number };
  performance: { rating: number; reviews: number; totalSessions: number; activeStudents: number };
  quickActions: string[];
}

export interface StudentDashboard {
  role: 'student';
  upcomingLessons: { when: string; tutor: string; subject: string; durationMinutes: number }[];
  progress: { subject: string; percent: number }[];
  achievements: { title: string; description: string }[];
}

export type Dashboard = TutorDashboard | StudentDashboard;

export function dashboardFor(role: Role): Dashboard {
  if (role === 'tutor') {
    return {
      role: 'tutor',
      todaysSessions: [
        { time: '09:00', student: 'Emma Wilson', subject: 'Algebra II', durationMinutes: 60 },
        { time: '13:30', student: 'Lucas Martin', subject: 'Physics', durationMinutes: 45 },
        { time: '17:00', student: 'Sofia Garcia', subject: 'Calculus', durationMinutes: 60 },
      ],
      earnings: { thisMonthUsd: 2450, changeFromLastMonthPercent: 12, pendingPayoutUsd: 380 },
      performance: { rating: 4.9, reviews: 127, totalSessions: 342, activeStudents: 18 },
      quickActions: ['Set Availability', 'View Messages', 'Update Profile'],
    };
  }
  return {
    role: 'student',
    upcomingLessons: [
      { when: 'Today, 16:00', tutor: 'Dr. Sarah Chen', subject: 'Calculus', durationMinutes: 60 },
      { when: 'Tomorrow, 10:00', tutor: 'Miguel Torres', subject: 'Spanish', durationMinutes: 45 },
      { when: 'Friday, 18:30', tutor: 'Alex Kim', subject: 'Python', durationMinutes: 60 },
    ],
    progress: [
      { subject: 'Calculus', percent: 72 },
      { subject: 'Spanish', percent: 45 },
      { subject: 'Python', percent: 88 },
    ],
    achievements: [
      { title: 'First lesson', description: 'Completed your first lesson' },
      { title: 'Five-day streak', description: 'Studied five days in a row' },
      { title: 'Quick learner', description: 'Finished a course unit ahead of plan' },
    ],
  };
}
