export { loadConfig, ConfigError, type LoadConfigOptions } from './config.load.ts';
export { environmentVariable } from './config.environment.ts';
export { DEFAULT_PLANS } from './config.defaults.ts';
export { PLAN_NAMES, type PlanName, type PlanLimits, type TocsinConfig } from './config.types.ts';
