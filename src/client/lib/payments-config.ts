/**
 * The school's payment settings from the public configuration: whether students pay through
 * Tutorlane, in which currency, whether card payments are offered, and how to pay by transfer.
 */
import { getPublicConfig, type PublicConfig, publicConfigInPage, usePublicConfig } from './public-config';

export type PaymentsConfig = PublicConfig['payments'];

/** Before the configuration is known: off, in dollars. */
export const PAYMENTS_UNKNOWN: PaymentsConfig = {
  on: false,
  currency: 'USD',
  stripe: false,
  instructions: '',
};

const paymentsOf = (config: PublicConfig | undefined): PaymentsConfig => config?.payments ?? PAYMENTS_UNKNOWN;

/** The payment settings, for a component. */
export const usePaymentsConfig = (): PaymentsConfig => paymentsOf(usePublicConfig());

/** The payment settings the page carries, for a loader or an action. */
export const paymentsConfigInPage = (): PaymentsConfig => paymentsOf(publicConfigInPage());

/** The payment settings, from the page or else GET /api/config. */
export const getPaymentsConfig = async (): Promise<PaymentsConfig> => paymentsOf(await getPublicConfig());
