/** What the family feature offers the rest of the app: a parent's choice of child where they book. */
export { ChildChoice, firstChoice, useChildChoice } from './child-choice';
export { useFamilyChildren } from './family-children';
