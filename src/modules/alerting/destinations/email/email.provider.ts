import { defineProvider } from '../destination.provider.ts';
import { EmailConfig } from './email.config.ts';
import { renderEmail, renderEmailGroup } from './email.render.ts';
import { sendEmail } from './email.send.ts';

/** Email to one address through `ctx.mailer`; down/recovered mails thread by Message-ID. */
export const emailProvider = defineProvider({
  type: 'email',
  configSchema: EmailConfig,
  render: renderEmail,
  renderGroup: renderEmailGroup,
  send: sendEmail,
});
