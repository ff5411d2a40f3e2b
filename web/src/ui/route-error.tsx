import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Something went wrong.';
  return (
    <main className="centered">
      <h1>Something went wrong</h1>
      <p role="alert">{message}</p>
      <p>
        <Link to="/">Back to the overview</Link>
      </p>
    </main>
  );
}
