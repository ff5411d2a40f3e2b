import { defineProvider } from '../destination.provider.ts';
import { OncallPager2Config } from './oncall_pager2.config.ts';
import { renderOncallPager2 } from './oncall_pager2.render.ts';
import { sendOncallPager2 } from './oncall_pager2.send.ts';

/** Opsgenie Alert API: create with alias `tocsin-<monitor id>`, close by alias on recovery; EU accounts use the EU host. */
export const oncallPager2Provider = defineProvider({
  type: 'oncall_pager2',
  configSchema: OncallPager2Config,
  render: renderOncallPager2,
  send: sendOncallPager2,
});
