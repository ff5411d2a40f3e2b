export declare const MODULE_GRAPH: Readonly<Record<string, readonly string[]>>;
