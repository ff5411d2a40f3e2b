import type { DestinationProvider } from '../destination.contract.ts';
import { matching, required, validateFields } from '../destination.validation.ts';
import { renderOncallPager1, type PagerDutyEvent } from './oncall_pager1.render.ts';
import { sendOncallPager1 } from './oncall_pager1.send.ts';

/** PagerDuty Events API v2: trigger with a per-monitor dedup key, resolve on recovery. */
export const oncallPager1Provider: DestinationProvider<PagerDutyEvent> = {
  type: 'oncall_pager1',
  secretFields: ['integration_key'],
  validateConfig: (config) =>
    validateFields(config, {
      integration_key: required(matching(/^[A-Za-z0-9]{32}$/, 'a 32-character Events API v2 integration key')),
    }),
  render: renderOncallPager1,
  send: sendOncallPager1,
};
