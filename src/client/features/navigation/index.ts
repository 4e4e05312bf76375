/** The site's navigation bar and footer, drawn by the app's layout. */
export { Footer } from './footer';
export { NavBar } from './nav-bar';
