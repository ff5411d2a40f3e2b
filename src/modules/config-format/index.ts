/**
 * The configuration document's format (DECISIONS §19): its kinds, items, keys and the paths where items name each
 * other. No storage and no other module: the CLI reads and checks a document with this alone, without loading the
 * configuration module's service (and the database layer behind it).
 */
export {
  CONFIG_DOCUMENT_KINDS,
  ITEM_KEY_PATTERN,
  type ConfigDocument,
  type ConfigDocumentKind,
  type ConfigItem,
  type DocumentProblem,
} from './config-document.types.ts';
export {
  DOCUMENT_REFERENCES,
  documentKeyProblems,
  holders,
  referencePath,
  valuesAt,
  type DocumentReference,
} from './config-document.references.ts';
