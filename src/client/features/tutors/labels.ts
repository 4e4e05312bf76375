/** Small texts the tutor pages share, said in the page's language. */
import { t } from '@lingui/core/macro';
import { formatAmount } from '../../../shared/amounts';
import { formatLocale } from '../../../shared/format-locale';
import { translated } from '../../lib/i18n';

/** A trial lesson's price: "Free", or its amount. */
export const trialPrice = (priceCents: number, currency: string) =>
  priceCents === 0 ? t`Free` : formatAmount(priceCents, currency);

/** Names from the catalogue (subjects, spoken languages) in the page's language, as a list: "English, Spanish". */
export const namesList = (names: readonly string[]) =>
  new Intl.ListFormat(formatLocale(), { type: 'unit', style: 'short' }).format(
    names.map((name) => translated(name)),
  );
