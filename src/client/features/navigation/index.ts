/** The site's navigation bar and footer, drawn by the app's layout, and the language switcher they hold (the profile shows it too). */
export { Footer } from './footer';
export { LanguageSelect } from './language-select';
export { NavBar } from './nav-bar';
