/**
 * How every database session plans its queries, on both stores. PostgreSQL's default
 * random_page_cost (4) prices a page read out of order at four sequential ones, as on a spinning
 * disk. Tutorlane's tables sit in memory or on SSDs, where the two cost about the same, and 1.1 is
 * PostgreSQL's own advice for that case. With 4, a search whose words match half the tutors ("exam"
 * in one category and price range) read every profile instead of the category's index: 9-12 ms
 * instead of 5 (docs/decisions/0005-performance-work.md).
 */
export const PLANNER_SETTINGS: [name: string, value: string][] = [['random_page_cost', '1.1']];
