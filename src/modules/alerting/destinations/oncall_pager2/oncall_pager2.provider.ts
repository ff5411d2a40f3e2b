import type { DestinationProvider } from '../destination.contract.ts';
import { nonEmptyString, oneOf, required, validateFields } from '../destination.validation.ts';
import { renderOncallPager2, type OpsgenieRequest } from './oncall_pager2.render.ts';
import { sendOncallPager2 } from './oncall_pager2.send.ts';

/** Opsgenie Alert API: create with alias `tocsin-<monitor id>`, close by alias on recovery; EU accounts use the EU host. */
export const oncallPager2Provider: DestinationProvider<OpsgenieRequest> = {
  type: 'oncall_pager2',
  secretFields: ['api_key'],
  validateConfig: (config) =>
    validateFields(config, { api_key: required(nonEmptyString(200)), region: required(oneOf(['us', 'eu'])) }),
  render: renderOncallPager2,
  send: sendOncallPager2,
};
