import type { SecretBox } from '../../platform/secrets.ts';
import type { DestinationProvider } from './destinations/index.ts';

/** The signing secret of a generic webhook lives beside the secret config fields, never in `config`. */
export const SIGNING_SECRET = 'signing_secret';

/** Splits a destination's config into clear and secret fields and seals the secret ones (bound to the destination id). */
export class DestinationSecrets {
  private readonly box: SecretBox;
  constructor(box: SecretBox) {
    this.box = box;
  }

  split(
    provider: Pick<DestinationProvider, 'secretFields'>,
    config: Record<string, unknown>,
  ): { clear: Record<string, unknown>; secret: Record<string, string> } {
    const clear: Record<string, unknown> = {};
    const secret: Record<string, string> = {};
    for (const [k, v] of Object.entries(config)) {
      if (provider.secretFields.includes(k) && typeof v === 'string') secret[k] = v;
      else clear[k] = v;
    }
    return { clear, secret };
  }

  seal(destinationId: string, secret: Record<string, string>): string | null {
    return Object.keys(secret).length === 0 ? null : this.box.seal(JSON.stringify(secret), destinationId);
  }

  open(destinationId: string, sealed: string | null): Record<string, string> {
    if (!sealed) return {};
    return JSON.parse(this.box.open(sealed, destinationId)) as Record<string, string>;
  }
}
