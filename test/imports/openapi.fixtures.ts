/** OpenAPI descriptions of each version and format, written the way real APIs write them. */

export const SWAGGER_2_JSON = JSON.stringify({
  swagger: '2.0',
  info: { title: 'Petstore', version: '1.0.0' },
  host: 'petstore.example.com',
  basePath: '/v2',
  schemes: ['http', 'https'],
  consumes: ['application/json'],
  securityDefinitions: { api_key: { type: 'apiKey', name: 'api_key', in: 'header' } },
  paths: {
    '/pet/{petId}': {
      get: {
        operationId: 'getPetById',
        summary: 'Find pet by ID',
        parameters: [{ name: 'petId', in: 'path', required: true, type: 'integer', format: 'int64', default: 7 }],
        responses: {
          '200': { description: 'ok', schema: { $ref: '#/definitions/Pet' } },
          '404': { description: 'no' },
        },
      },
      delete: {
        operationId: 'deletePet',
        security: [{ api_key: [] }],
        parameters: [{ name: 'petId', in: 'path', required: true, type: 'integer' }],
        responses: { '204': { description: 'gone' } },
      },
    },
    '/pet': {
      post: {
        operationId: 'addPet',
        parameters: [{ in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/Pet' } }],
        responses: { '201': { description: 'created' }, '405': { description: 'invalid' } },
      },
    },
    '/pet/findByStatus': {
      get: {
        operationId: 'findPetsByStatus',
        parameters: [
          {
            name: 'status',
            in: 'query',
            required: true,
            type: 'array',
            items: { type: 'string', enum: ['available', 'sold'] },
          },
          { name: 'limit', in: 'query', required: false, type: 'integer' },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/store/order': {
      post: {
        operationId: 'placeOrder',
        consumes: ['application/x-www-form-urlencoded'],
        parameters: [
          { name: 'petId', in: 'formData', required: true, type: 'integer', default: 3 },
          { name: 'note', in: 'formData', type: 'string', 'x-example': 'soon' },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  definitions: {
    Pet: {
      type: 'object',
      required: ['name'],
      properties: {
        id: { type: 'integer', readOnly: true },
        name: { type: 'string', example: 'doggie' },
        category: { $ref: '#/definitions/Category' },
        status: { type: 'string', enum: ['available', 'pending'] },
      },
    },
    Category: {
      type: 'object',
      properties: { id: { type: 'integer' }, parent: { $ref: '#/definitions/Category' } },
    },
  },
});

export const OPENAPI_30_YAML = `
openapi: 3.0.3
info:
  title: Billing
  version: "2"
servers:
  - url: https://{region}.billing.example.com/api
    variables:
      region:
        default: eu
        enum: [eu, us]
  - url: https://sandbox.billing.example.com/api
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer, bearerFormat: JWT }
    oauth: { type: oauth2, flows: { clientCredentials: { tokenUrl: https://auth.example.com/token, scopes: {} } } }
  parameters:
    InvoiceId:
      name: invoiceId
      in: path
      required: true
      schema: { type: string, format: uuid }
      example: 8c0b3f3e-2b5a-4c55-9a3a-0f0f0f0f0f0f
  schemas:
    Node:
      type: object
      properties:
        name: { type: string }
        children: { type: array, items: { $ref: '#/components/schemas/Node' } }
    Invoice:
      type: object
      properties:
        id: { type: string, readOnly: true }
        amount: { type: number, minimum: 0 }
        currency: { type: string, default: EUR }
        customer: { $ref: 'https://schemas.example.com/customer.yaml#/Customer' }
        tree: { $ref: '#/components/schemas/Node' }
security:
  - bearer: []
paths:
  /health:
    get:
      operationId: health
      security: []
      responses:
        "200": { description: up }
  /invoices/{invoiceId}:
    parameters:
      - $ref: '#/components/parameters/InvoiceId'
    get:
      operationId: getInvoice
      parameters:
        - name: X-Tenant
          in: header
          required: true
          schema: { type: string, enum: [acme, globex] }
      responses:
        "200": { description: ok }
        "304": { description: not modified }
    put:
      operationId: putInvoice
      security:
        - oauth: []
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Invoice' }
      responses:
        "200": { description: ok }
  /invoices:
    post:
      operationId: createInvoice
      requestBody:
        content:
          application/json:
            examples:
              small: { value: { amount: 10, currency: USD } }
            schema: { $ref: '#/components/schemas/Invoice' }
      responses:
        "201": { description: created }
  /legacy:
    get:
      operationId: legacy
      security: []
      responses:
        "301": { description: moved }
  /reports/{year}:
    get:
      security: []
      parameters:
        - name: year
          in: path
          required: true
          schema: { type: integer }
      responses:
        "2XX": { description: ok }
  /external:
    get:
      operationId: external
      security: []
      parameters:
        - $ref: 'parameters.yaml#/Limit'
      responses:
        "200": { $ref: '#/components/responses/Missing' }
`;

export const OPENAPI_31_OBJECT = {
  openapi: '3.1.0',
  info: { title: 'Webhooks and paths', version: '1' },
  servers: [{ url: '/relative/base' }],
  paths: {
    '/items/{id}': {
      get: {
        operationId: 'getItem',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: ['string', 'null'], examples: ['it-1'] } },
        ],
        responses: { '200': { description: 'ok' } },
      },
      head: {
        operationId: 'headItem',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { const: 'it-2' } }],
        responses: { '200': { description: 'ok' } },
      },
      trace: { operationId: 'traceItem', responses: { '200': { description: 'ok' } } },
    },
    '/upload': {
      post: {
        operationId: 'upload',
        requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  webhooks: { newItem: { post: { responses: { '200': { description: 'ok' } } } } },
};

/** A large description: `n` resources with list/get/create/update/delete operations and shared schemas. */
export function largeDescription(operations: number, padding = 0): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const resources = Math.ceil(operations / 5);
  for (let r = 0; r < resources; r++) {
    const name = `Resource${r}`;
    schemas[name] = {
      type: 'object',
      description: 'x'.repeat(padding),
      properties: {
        id: { type: 'string', format: 'uuid', readOnly: true },
        title: { type: 'string', example: `title ${r}` },
        count: { type: 'integer', minimum: 1 },
        owner: { $ref: '#/components/schemas/Owner' },
        related: { type: 'array', items: { $ref: `#/components/schemas/${name}` } },
      },
    };
    const ref = { $ref: `#/components/schemas/${name}` };
    const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: `r${r}` };
    paths[`/resources${r}`] = {
      get: {
        operationId: `list${r}`,
        parameters: [{ name: 'page', in: 'query', schema: { type: 'integer' } }],
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: ref } } } },
        },
      },
      post: {
        operationId: `create${r}`,
        requestBody: { content: { 'application/json': { schema: ref } } },
        responses: { '201': { description: 'created' } },
      },
    };
    paths[`/resources${r}/{id}`] = {
      get: {
        operationId: `get${r}`,
        parameters: [idParam],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: ref } } } },
      },
      put: {
        operationId: `update${r}`,
        parameters: [idParam],
        requestBody: { content: { 'application/json': { schema: ref } } },
        responses: { '200': { description: 'ok' } },
      },
      delete: { operationId: `delete${r}`, parameters: [idParam], responses: { '204': { description: 'gone' } } },
    };
  }
  schemas.Owner = {
    type: 'object',
    properties: { name: { type: 'string' }, manager: { $ref: '#/components/schemas/Owner' } },
  };
  return {
    openapi: '3.0.3',
    info: { title: 'Large', version: '1' },
    servers: [{ url: 'https://large.example.com' }],
    paths,
    components: { schemas },
  };
}

/** YAML whose aliases expand to 9^9 leaves ("billion laughs"). */
export const ALIAS_BOMB = `
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
openapi: 3.0.0
paths: {}
`;
