/**
 * Unit tests render and call page code whose texts go through Lingui: English, with no catalogue
 * (a text's English is its own fallback), as a page in English shows it.
 */
import { i18n } from '@lingui/core';

i18n.loadAndActivate({ locale: 'en', messages: {} });
