import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';
import { Field, FormError, useFocusFirstInvalid } from '../ui/form';
import { DEFAULT_FIELDS, defaultsBody, EMPTY_DEFAULTS, ImportDefaults } from './import-openapi.defaults';
import { OperationsTable, type ParsedOperation } from './import-openapi.operations';
import { plural } from '../lib/format';

/** Paste or upload a description → its operations with warnings → choose and set defaults → create, with links. */
export default function ImportOpenApiPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { session } = useSession();
  const sourceForm = useRef<HTMLFormElement>(null);
  const createForm = useRef<HTMLFormElement>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const [text, setText] = useState('');
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [baseUrl, setBaseUrl] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [defaults, setDefaults] = useState(EMPTY_DEFAULTS);

  const parse = useMutation({
    mutationFn: async () => {
      const body = { spec: file ? file.text : text, ...(baseUrl.trim() && { base_url: baseUrl.trim() }) };
      return unwrap(await api.client.POST('/api/v1/monitors/openapi/parse', { body })).operations;
    },
    onSuccess: (operations) => {
      setChosen(new Set(operations.filter((o) => o.create).map((o) => o.operation_id)));
      create.reset();
    },
  });
  const operations: ParsedOperation[] = parse.data ?? [];
  const chosenIds = operations.map((o) => o.operation_id).filter((id) => chosen.has(id));
  const [createdFor, setCreatedFor] = useState<string | null>(null);
  const choiceKey = JSON.stringify([parse.submittedAt, chosenIds, defaults]);

  const create = useMutation({
    // The variable is the choice it was made for, so the same monitors are not created twice by a second click.
    mutationFn: async (_choice: string) => {
      // The parse's operations go back as they are, so the API's `operations[i]` issues point at our rows.
      const body = {
        operations: operations.map((o) => ({ operation_id: o.operation_id, monitor: o.monitor })),
        operation_ids: chosenIds,
        defaults: defaultsBody(defaults),
      };
      const headers = { 'Idempotency-Key': crypto.randomUUID() };
      // The defaults are sent as typed; the API's schema judges them and its issues come back onto the fields.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- free-form body checked by the server's schema
      const payload = body as any;
      return unwrap(
        await api.client.POST('/api/v1/monitors/openapi/import', { params: { header: headers }, body: payload }),
      ).data;
    },
    onSuccess: (_data, key) => {
      setCreatedFor(key);
      void queryClient.invalidateQueries({ queryKey: ['monitors'] });
    },
  });

  useFocusFirstInvalid(sourceForm, parse.error);
  useFocusFirstInvalid(createForm, create.error);
  useEffect(() => {
    if (parse.isSuccess) resultsHeading.current?.focus();
  }, [parse.isSuccess, parse.data]);

  if (!can(session.role).write) {
    return (
      <>
        <h1>Import from OpenAPI</h1>
        <p role="alert">Your role ({session.role}) can look at monitors but not create them.</p>
      </>
    );
  }
  const parseError = parse.error instanceof ApiError ? parse.error : null;
  const createError = create.error instanceof ApiError ? create.error : null;
  const setAll = (on: boolean) => setChosen(new Set(on ? operations.map((o) => o.operation_id) : []));
  return (
    <>
      <div className="page-head">
        <h1>Import from OpenAPI</h1>
        <Link to="/imports/grpc">Discover a gRPC server instead</Link>
      </div>
      <p className="muted">
        One HTTP monitor per operation of a Swagger 2.0 or OpenAPI 3.x description. Nothing is created until you choose;
        references to other documents are never fetched.
      </p>
      <form
        ref={sourceForm}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          parse.mutate();
        }}
      >
        <FormError error={parse.error} fields={['spec', 'base_url']} />
        <Field
          label="OpenAPI description (JSON or YAML)"
          name="spec"
          error={file ? null : parseError}
          hint={file ? 'An uploaded file is used instead.' : 'Paste the document here, or upload a file below.'}
        >
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              rows={10}
              spellCheck={false}
              className="code"
              value={text}
              disabled={file !== null}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setText(e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Or upload a file"
          name="spec"
          error={file ? parseError : null}
          hint={file ? `Using ${file.name} (${file.text.length.toLocaleString('en')} characters).` : 'At most 10 MiB.'}
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              type="file"
              accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => {
                const picked = e.target.files?.[0];
                if (!picked) return setFile(null);
                void picked.text().then((content) => setFile({ name: picked.name, text: content }));
              }}
            />
          )}
        </Field>
        {file && (
          <p>
            <button
              type="button"
              onClick={() => {
                setFile(null);
                const input = sourceForm.current?.querySelector<HTMLInputElement>('input[type=file]');
                if (input) input.value = '';
              }}
            >
              Use the pasted text instead
            </button>
          </p>
        )}
        <Field
          label="Base URL"
          name="base_url"
          error={parseError}
          hint="Optional: replaces the description's servers, e.g. https://api.example.com/v1."
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              type="url"
              value={baseUrl}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setBaseUrl(e.target.value)}
            />
          )}
        </Field>
        <div className="actions">
          <button type="submit" className="primary" disabled={parse.isPending}>
            {parse.isPending ? 'Reading…' : 'Preview operations'}
          </button>
        </div>
      </form>

      {parse.isSuccess && (
        <section aria-labelledby="operations-heading">
          <h2 id="operations-heading" ref={resultsHeading} tabIndex={-1}>
            {plural(operations.length, 'operation')}
          </h2>
          {operations.length === 0 ? (
            <p>The description has no operations.</p>
          ) : (
            <form
              ref={createForm}
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                create.mutate(choiceKey);
              }}
            >
              <div className="actions">
                <button type="button" onClick={() => setAll(true)}>
                  Select all
                </button>
                <button type="button" onClick={() => setAll(false)}>
                  Select none
                </button>
                <span role="status" aria-live="polite">
                  {chosenIds.length} of {operations.length} chosen
                </span>
              </div>
              <p className="muted small">
                Preselected: GET and HEAD operations whose URL, credentials and body are all known. Check the warnings
                of the others before choosing them.
              </p>
              <FormError error={create.error} fields={[...DEFAULT_FIELDS, 'operations', 'operation_ids']} />
              <OperationsTable
                operations={operations}
                chosen={chosen}
                chosenIds={chosenIds}
                error={createError}
                onToggle={(id, on) =>
                  setChosen((prev) => {
                    const next = new Set(prev);
                    if (on) next.add(id);
                    else next.delete(id);
                    return next;
                  })
                }
              />
              <ImportDefaults value={defaults} onChange={setDefaults} error={createError} />
              <div className="actions">
                <button
                  type="submit"
                  className="primary"
                  disabled={create.isPending || chosenIds.length === 0 || createdFor === choiceKey}
                >
                  {create.isPending
                    ? `Creating ${plural(chosenIds.length, 'monitor')}…`
                    : `Create ${plural(chosenIds.length, 'monitor')}`}
                </button>
                {createdFor === choiceKey && (
                  <span className="muted small">Created. Change the choice or the defaults to create more.</span>
                )}
              </div>
            </form>
          )}
        </section>
      )}
      <ImportProgress
        pending={create.isPending}
        count={chosenIds.length}
        created={create.data}
        failed={create.isError}
      />
    </>
  );
}

/**
 * The import is one transaction: all chosen monitors are created, or none (a refusal names every problem). So the
 * progress says how many are on their way, then how many were created, each linked.
 */
function ImportProgress(props: {
  pending: boolean;
  count: number;
  failed: boolean;
  created: { id: string; name: string; target: string }[] | undefined;
}) {
  return (
    <section aria-label="Import result" className="import-result">
      {/* Always there, so that screen readers announce each change of it. */}
      <p role="status" aria-live="polite">
        {props.pending
          ? `Creating ${plural(props.count, 'monitor')}…`
          : props.created
            ? `Created ${plural(props.created.length, 'monitor')}, 0 failed.`
            : props.failed
              ? `Created 0 monitors: the import was refused (all or none), see above.`
              : ''}
      </p>
      {props.created && props.created.length > 0 && (
        <ul className="plain created">
          {props.created.map((m) => (
            <li key={m.id}>
              <span aria-hidden="true">✓</span> <Link to={`/monitors/${m.id}`}>{m.name}</Link>{' '}
              <span className="muted target">{m.target}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
