// Tier 1: the OPTIONS request a trunk check sends and the reading of responses to it.
import { answers, optionsRequest, parseResponseHead } from '../src/sip/options-message.js';

const target = { host: '2001:db8::5', port: 5070, transport: 'tcp' as const, secure: false, localAddress: '192.0.2.1', localPort: 40000 };

test('the request carries every header RFC 3261 asks of an OPTIONS, a fresh branch and Call-ID each time', () => {
  const request = optionsRequest(target);
  const lines = request.text.split('\r\n');
  expect(lines[0]).toBe('OPTIONS sip:[2001:db8::5]:5070;transport=tcp SIP/2.0');
  expect(lines).toContain(`Via: SIP/2.0/TCP 192.0.2.1:40000;branch=${request.branch};rport`);
  expect(request.branch).toMatch(/^z9hG4bK[0-9a-f]{24}$/);
  expect(lines).toEqual(expect.arrayContaining(['Max-Forwards: 70', 'CSeq: 1 OPTIONS', 'Content-Length: 0', `Call-ID: ${request.callId}`, 'To: <sip:[2001:db8::5]:5070;transport=tcp>']));
  expect(lines.find((line) => line.startsWith('From: '))).toMatch(/^From: <sip:check@192\.0\.2\.1>;tag=[0-9a-f]{16}$/);
  expect(lines.find((line) => line.startsWith('Contact: '))).toBe('Contact: <sip:check@192.0.2.1:40000;transport=tcp>');
  expect(request.text.endsWith('\r\n\r\n')).toBe(true);
  const second = optionsRequest(target);
  expect(second.branch).not.toBe(request.branch);
  expect(second.callId).not.toBe(request.callId);
  expect(optionsRequest({ ...target, host: 'pbx.example', transport: 'tls', secure: true }).text).toMatch(/^OPTIONS sips:pbx\.example:5070;transport=tls SIP\/2\.0\r\n/);
});

test('a response matches its request by Call-ID and branch, compact header names included', () => {
  const request = optionsRequest(target);
  const response = parseResponseHead(`SIP/2.0 486 Busy Here\r\nv: SIP/2.0/TCP 192.0.2.1:40000;branch=${request.branch}\r\ni: ${request.callId}\r\nl: 0`);
  expect(response).toMatchObject({ statusCode: 486, reasonPhrase: 'Busy Here' });
  expect(answers(response!, request)).toBe(true);
  expect(answers(parseResponseHead(`SIP/2.0 200 OK\r\nVia: SIP/2.0/TCP x;branch=z9hG4bKother\r\nCall-ID: ${request.callId}`)!, request)).toBe(false);
  expect(answers(parseResponseHead(`SIP/2.0 200 OK\r\nVia: SIP/2.0/TCP x;branch=${request.branch}\r\nCall-ID: someone-else`)!, request)).toBe(false);
  expect(parseResponseHead('HTTP/1.1 200 OK\r\nContent-Length: 0')).toBeUndefined();
  expect(parseResponseHead('OPTIONS sip:x SIP/2.0')).toBeUndefined();
});
