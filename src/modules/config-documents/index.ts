/** Configuration as code (DECISIONS §19): plan, apply and adopt a document; its format (kinds, keys, references). */
// The document's format is a module of its own (config-format); re-exported for this module's users.
export {
  CONFIG_DOCUMENT_KINDS,
  DOCUMENT_REFERENCES,
  documentKeyProblems,
  holders,
  ITEM_KEY_PATTERN,
  referencePath,
  valuesAt,
  type ConfigDocument,
  type ConfigDocumentKind,
  type ConfigItem,
  type DocumentProblem,
  type DocumentReference,
} from '../config-format/index.ts';
export { configDocumentsMigrations } from './config-documents.migrations.ts';
export {
  ConfigDocumentsService,
  type ConfigKindPort,
  type ConfigKindPorts,
  type AdoptInput,
  type DocumentInput,
} from './config-document.service.ts';
export type { DocumentPlan, PlanAction, PlanChange, PlanEntry } from './config-document.plan.ts';
