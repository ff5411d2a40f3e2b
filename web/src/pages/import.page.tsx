import { Link } from 'react-router';

/** The two ways to cover a whole API in one step (docs/imports.md). */
export default function ImportPage() {
  return (
    <>
      <h1>Import monitors</h1>
      <ul className="plain import-choices">
        <li className="card">
          <h2>
            <Link to="/imports/openapi">From an OpenAPI description</Link>
          </h2>
          <p>Paste or upload a Swagger 2.0 or OpenAPI 3.x document; choose its operations; create HTTP monitors.</p>
        </li>
        <li className="card">
          <h2>
            <Link to="/imports/grpc">From a gRPC server</Link>
          </h2>
          <p>Discover its services by reflection and monitor a method with a ready request.</p>
        </li>
      </ul>
    </>
  );
}
