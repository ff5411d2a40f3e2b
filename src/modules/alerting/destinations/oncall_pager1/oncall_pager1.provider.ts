import { defineProvider } from '../destination.provider.ts';
import { OncallPager1Config } from './oncall_pager1.config.ts';
import { renderOncallPager1 } from './oncall_pager1.render.ts';
import { sendOncallPager1 } from './oncall_pager1.send.ts';

/** PagerDuty Events API v2: trigger with a per-monitor dedup key, resolve on recovery. */
export const oncallPager1Provider = defineProvider({
  type: 'oncall_pager1',
  configSchema: OncallPager1Config,
  render: renderOncallPager1,
  send: sendOncallPager1,
});
