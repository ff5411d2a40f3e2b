export interface RestrictedImport {
  name: string;
  importNames?: string[];
  message: string;
  allowTypeImports: boolean;
}
export declare const restrictedImports: RestrictedImport[];
export declare const restrictedSyntax: Array<{ selector: string; message: string }>;
export declare const restrictedGlobals: Array<{ name: string; message: string }>;
