import type { DestinationProvider, MailMessage } from '../destination.contract.ts';
import { emailAddress, required, validateFields } from '../destination.validation.ts';
import { renderEmail, renderEmailGroup } from './email.render.ts';
import { sendEmail } from './email.send.ts';

/** Email to one address through `ctx.mailer`; down/recovered mails thread by Message-ID. */
export const emailProvider: DestinationProvider<MailMessage> = {
  type: 'email',
  secretFields: [],
  validateConfig: (config) => validateFields(config, { address: required(emailAddress) }),
  render: renderEmail,
  renderGroup: renderEmailGroup,
  send: sendEmail,
};
