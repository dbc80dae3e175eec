// Ids: random v4 ones for resources, and ids derived from their parts for what a retry must name again.
import { derivedId, isUuid, newId } from '../src/ids.js';

test('new ids are UUID v4 and distinct; anything else is not a resource id', () => {
  const id = newId();
  expect(isUuid(id)).toBe(true);
  expect(newId()).not.toBe(id);
  for (const other of ['not-a-uuid', '', 42, derivedId('a')]) expect(isUuid(other)).toBe(false);
});

test('a derived id is a version 8 UUID, the same for the same parts and another for others', () => {
  const id = derivedId('platform-transfer', '8b0c5f2e-3c1d-4a7b-9f00-1c2d3e4f5a6b', 'order-42');
  // The platform transfers' ids from before the helper existed: a key retried across the change still replays.
  expect(id).toBe('c8179637-1c8e-8732-8265-350a0333a700');
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(derivedId('platform-transfer', '8b0c5f2e-3c1d-4a7b-9f00-1c2d3e4f5a6b', 'order-42')).toBe(id);
  // The parts stay apart: moving the boundary between them gives another id.
  expect(derivedId('ab', 'c')).not.toBe(derivedId('a', 'bc'));
});
