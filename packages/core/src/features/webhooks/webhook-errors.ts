import { ExplorerError } from '../../errors/index.js';

export class WebhookNotFoundError extends ExplorerError {
  constructor() {
    super('WEBHOOK_NOT_FOUND');
  }
}

export class WebhookDeliveryNotFoundError extends ExplorerError {
  constructor() {
    super('WEBHOOK_DELIVERY_NOT_FOUND');
  }
}

/** One webhook more than a user may hold: the message says the cap. */
export class WebhookLimitError extends ExplorerError {
  constructor(max: number) {
    super('WEBHOOK_LIMIT', { message: `Error! Webhook limit reached: at most ${max} webhooks per user; delete one first` });
  }
}

/** More addresses (or tokens) on one webhook than allowed: the message names the field and the cap. */
export class WebhookAddressLimitError extends ExplorerError {
  constructor(field: 'addresses' | 'tokens', max: number) {
    super('WEBHOOK_ADDRESS_LIMIT', { message: `Error! Watched address limit reached: ${field} may hold at most ${max} entries per webhook` });
  }
}
