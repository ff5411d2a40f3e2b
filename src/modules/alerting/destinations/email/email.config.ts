import type { Static } from '@sinclair/typebox';
import { configObject, emailAddress } from '../destination.validation.ts';

export const EmailConfig = configObject({ address: emailAddress('Email address.') });
export type EmailConfig = Static<typeof EmailConfig>;
