/** Public surface of the check engine. */
export * from './probes/index.ts';
