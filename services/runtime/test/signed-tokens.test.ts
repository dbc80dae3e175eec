// The one signing helper: signatures and sealed tokens bound to their purpose and secret, rejected
// when altered in any way; one-use secrets stored only as their hash.
import { randomBytes } from 'node:crypto';
import { oneUseSecret, oneUseSecretHash, oneUseSecretPattern, Signer } from '../src/signed-tokens.js';

const secret = randomBytes(32);

test('a signature verifies for its payload and purpose only, under its secret only', () => {
  const signer = new Signer(secret, 'test:one');
  const signature = signer.sign('payload');
  expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(signer.verify('payload', signature)).toBe(true);
  expect(new Signer(Buffer.from(secret), 'test:one').verify('payload', signature)).toBe(true);
  expect(signer.verify('payload2', signature)).toBe(false);
  expect(new Signer(secret, 'test:two').verify('payload', signature)).toBe(false);
  expect(new Signer(randomBytes(32), 'test:one').verify('payload', signature)).toBe(false);
  const altered = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
  for (const bad of [altered, signature.slice(1), `${signature}A`, '', 'not a signature']) {
    expect(signer.verify('payload', bad)).toBe(false);
  }
});

test('a sealed token opens to its payload; altered, foreign or malformed ones open to nothing', () => {
  const signer = new Signer(secret, 'test:sealed');
  const payload = JSON.stringify({ u: 'user', e: 1 });
  const token = signer.seal(payload);
  expect(signer.open(token)).toBe(payload);
  const [body, signature] = token.split('.') as [string, string];
  const otherBody = Buffer.from(JSON.stringify({ u: 'admin', e: 1 })).toString('base64url');
  for (const bad of [`${otherBody}.${signature}`, new Signer(secret, 'test:other').seal(payload), body, `${token}.x`, `.${signature}`, '', `${'a'.repeat(3000)}.${signature}`]) {
    expect(signer.open(bad)).toBeUndefined();
  }
});

test('one-use secrets are fresh, shaped alike, and stored only as their hash', () => {
  const first = oneUseSecret();
  const second = oneUseSecret();
  expect(first.secret).toMatch(oneUseSecretPattern);
  expect(first.secret).not.toBe(second.secret);
  expect(first.hash).not.toContain(first.secret);
  expect(oneUseSecretHash(first.secret)).toBe(first.hash);
  expect(oneUseSecretHash(second.secret)).not.toBe(first.hash);
});
