/**
 * Why a card payment that Stripe took was not credited to a wallet: the reasons the server records
 * (GET /api/admin/finance, `unappliedPayments[].reason`) and what the admin's finance page says of
 * each. The database's CHECK constraint lists the same codes.
 */
export const UNAPPLIED_PAYMENT_REASONS = [
  'top_up_rejected',
  'amount_differs',
  'currency_differs',
  'session_differs',
  'not_a_card_top_up',
  'unknown_top_up',
] as const;

export type UnappliedPaymentReason = (typeof UNAPPLIED_PAYMENT_REASONS)[number];

export const unappliedPaymentReasonTexts: Record<UnappliedPaymentReason, string> = {
  top_up_rejected: /*i18n*/ 'The top-up had been rejected when the card was charged.',
  amount_differs: /*i18n*/ 'The amount charged is not the amount of the top-up.',
  currency_differs: /*i18n*/ 'The card was charged in another currency than the top-up’s.',
  session_differs: /*i18n*/ 'The payment came through a payment page this top-up did not open.',
  not_a_card_top_up: /*i18n*/ 'The payment names a bank-transfer top-up, not a card one.',
  unknown_top_up: /*i18n*/ 'The payment names a top-up that does not exist.',
};
