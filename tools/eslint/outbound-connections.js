// @ts-check
/**
 * Outbound connections leave only through platform/net's connector (docs/architecture.md, "Outbound connections"):
 * production code under src/modules may not open sockets or HTTP requests itself, so that every connection is to an
 * address that was resolved once and vetted against `network.allow_private_targets`. Type imports stay allowed.
 */
const CONNECTOR = 'use platform/net (createOutboundConnector, connectTcpTo/connectTlsTo): it vets and pins the address';

/** @type {Array<{ name: string, importNames?: string[], message: string, allowTypeImports: boolean }>} */
export const restrictedImports = [
  ...['node:http', 'node:https', 'http', 'https'].map((name) => ({
    name,
    importNames: ['request', 'get', 'Agent', 'globalAgent'],
    message: `No HTTP requests from node:http(s) in modules: ${CONNECTOR}.`,
    allowTypeImports: true,
  })),
  ...['node:net', 'net'].map((name) => ({
    name,
    importNames: ['connect', 'createConnection', 'Socket'],
    message: `No raw sockets in modules: ${CONNECTOR}.`,
    allowTypeImports: true,
  })),
  ...['node:tls', 'tls'].map((name) => ({
    name,
    importNames: ['connect', 'TLSSocket'],
    message: `No raw TLS connections in modules: ${CONNECTOR}.`,
    allowTypeImports: true,
  })),
  ...['node:http2', 'http2'].map((name) => ({
    name,
    importNames: ['connect'],
    message: `No HTTP/2 sessions in modules: ${CONNECTOR}.`,
    allowTypeImports: true,
  })),
  ...['node:dns', 'node:dns/promises', 'dns', 'dns/promises'].map((name) => ({
    name,
    importNames: ['lookup'],
    message: `A lookup then a connection by name is DNS rebinding: ${CONNECTOR}.`,
    allowTypeImports: true,
  })),
  { name: 'undici', message: `undici belongs to the connector: ${CONNECTOR}.`, allowTypeImports: true },
];

/** Calls through namespace imports (`tls.connect`) and the global fetch. */
export const restrictedSyntax = [
  {
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.object.name=/^(net|tls|http|https|http2)$/][callee.property.name=/^(connect|createConnection|request|get)$/]",
    message: `No direct connections in modules: ${CONNECTOR}.`,
  },
  {
    selector: "MemberExpression[object.name='globalThis'][property.name='fetch']",
    message: `No global fetch in modules: ${CONNECTOR}.`,
  },
];

export const restrictedGlobals = [{ name: 'fetch', message: `No global fetch in modules: ${CONNECTOR}.` }];
