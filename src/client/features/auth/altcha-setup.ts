/**
 * Loads the ALTCHA widget only when a form needs it. The external build keeps styles and workers
 * out of inline code, so our Content-Security-Policy needs no 'unsafe-inline' script.
 */
import 'altcha/external';
import 'altcha/altcha.css';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';

$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());
