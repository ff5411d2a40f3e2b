/**
 * One variable of the process's environment, for what is not the service's configuration: the `${env:NAME}`
 * secrets of a configuration document and the CLI's TOCSIN_URL / TOCSIN_API_KEY.
 */
export function environmentVariable(name: string): string | undefined {
  return process.env[name];
}
