// Resource ids are UUID v4 strings; anything else in a path is simply "not found".
import { randomUUID } from 'node:crypto';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const newId = (): string => randomUUID();

export const isUuid = (value: unknown): value is string => typeof value === 'string' && uuidPattern.test(value);
